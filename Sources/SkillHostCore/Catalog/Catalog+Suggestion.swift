extension Catalog {
    /// The kinds of id a mistyped one is compared with.
    public enum IDKind: Sendable {
        /// Plugin ids (`clock`).
        case plugin
        /// Native skill ids (`clock.now`).
        case skill
        /// Instruction skill ids (`pdf-forms`).
        case instruction
    }

    /// The "did you mean" part of a not-found message for `id` (``NearestName/didYouMean(_:among:)``), or an
    /// empty string when no id of `kinds` is close. Ids are compared normalized, in catalog order.
    public func didYouMean(_ id: String, among kinds: Set<IDKind>) -> String {
        var names: [String] = []
        if kinds.contains(.plugin) { names += plugins.map(\.id) }
        if kinds.contains(.skill) { names += plugins.flatMap { $0.skills.map(\.id) } }
        if kinds.contains(.instruction) { names += instructions.map(\.id) }
        return NearestName.didYouMean(Identifier.normalize(id), among: names)
    }
}
