/// RFC 6901 JSON Pointer helpers, for error locations ("/items/0/time") and `$ref` fragments.
public enum JSONPointer {
    /// Escapes one reference token ("~" → "~0", "/" → "~1").
    public static func escape(_ token: String) -> String {
        let special: (UInt8) -> Bool = { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }
        let escapes = token.utf8.withContiguousStorageIfAvailable { $0.contains(where: special) }
        guard escapes ?? token.utf8.contains(where: special) else { return token }
        return token.replacingOccurrences("~", "~0").replacingOccurrences("/", "~1")
    }

    /// Unescapes one reference token ("~1" → "/", "~0" → "~").
    public static func unescape(_ token: String) -> String {
        guard token.utf8.contains(UInt8(ascii: "~")) else { return token }
        return token.replacingOccurrences("~1", "/").replacingOccurrences("~0", "~")
    }

    /// Appends a token to a pointer: `appending("/a", "b/c")` is "/a/b~1c".
    public static func appending(_ pointer: String, _ token: String) -> String {
        pointer + "/" + escape(token)
    }

    /// Splits a pointer into unescaped tokens; nil when it does not start with "/" (and is not "").
    public static func tokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            unescape(String($0))
        }
    }
}

extension JSONValue {
    /// The value at an RFC 6901 pointer ("" is the whole document), or nil when there is none.
    public func value(atPointer pointer: String) -> JSONValue? {
        guard let tokens = JSONPointer.tokens(pointer) else { return nil }
        var current = self
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let array):
                guard let position = Int(token), position >= 0, position < array.count,
                    token == String(position)
                else { return nil }
                current = array[position]
            default: return nil
            }
        }
        return current
    }
}

extension String {
    /// Replaces every occurrence of `target` (a Foundation-free helper for this module).
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        guard !target.isEmpty else { return self }
        let pieces = self.split(separator: target, omittingEmptySubsequences: false)
        return pieces.joined(separator: replacement)
    }
}
