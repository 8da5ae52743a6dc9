/// The `{name}` slots of a skill's example utterances, e.g. `"what time is it in {timezone}"`.
public enum ExampleSlots {
    /// The slot names of `example`, in order.
    public static func names(in example: String) -> [String] {
        var names: [String] = []
        var current: String?
        for character in example {
            if character == "{" {
                current = ""
            } else if character == "}", let name = current {
                names.append(name)
                current = nil
            } else if current != nil {
                current!.append(character)
            }
        }
        return names
    }
}
