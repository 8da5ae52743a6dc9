import SkillJSON

/// How the planner reads file names, folder names and name patterns from words (``SkillVocabulary/SlotKind``
/// `file`, `folder`, `glob`). A value is one word; "the", "my" and a kind word ("folder", "file") around it
/// are dropped ("the projects folder" → "projects", "the file report.md" → "report.md"); "my documents" or
/// "my files" is the root, so the parameter stays out (`.null`).
enum PathWords {
    static let determiners: Set<String> = ["the", "my", "this", "that", "our", "your", "all"]
    static let kindWords: Set<String> = ["folder", "folders", "directory", "directories", "dir", "file", "files"]
    /// Kind words that may stand beside one path ("the file report.md", "the notes folder").
    static let namingWords: Set<String> = ["folder", "directory", "dir", "file"]
    /// What "my …" calls the whole of the user's files.
    static let rootNames: Set<String> = ["documents", "files", "docs", "stuff", "folder", "home"]

    /// A word as typed without quotes, brackets and sentence punctuation around it (a leading "." stays:
    /// ".txt", ".config").
    static func trimmed(_ word: String) -> String {
        var text = Substring(word)
        let leading: Set<Character> = ["\"", "'", "(", "“", "‘", "["]
        let trailing: Set<Character> = ["\"", "'", ")", "”", "’", "]", ",", ".", "!", "?", ";", ":"]
        while let first = text.first, leading.contains(first) { text = text.dropFirst() }
        while let last = text.last, trailing.contains(last) { text = text.dropLast() }
        return String(text)
    }

    /// Whether a word ends in a file extension ("todo.txt", "archive.tar.gz"; not ".txt" alone).
    static func hasExtension(_ word: String) -> Bool {
        let name = word.split(separator: "/").last.map(String.init) ?? word
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        let suffix = name[name.index(after: dot)...]
        return (1...6).contains(suffix.count) && suffix.allSatisfy { $0.isLetter || $0.isNumber }
    }

    /// A file or folder path from `words`, and whether it is recognisable on its own (an extension, a
    /// slash, or a kind word beside it); nil when the words are no such path.
    static func path(_ words: [String], folder: Bool) -> (value: JSONValue, recognisable: Bool)? {
        var words = words.map(trimmed).filter { !$0.isEmpty }
        var owned = false
        var named = false
        while let first = words.first?.lowercased(), determiners.contains(first) {
            owned = owned || first == "my"
            words.removeFirst()
        }
        if words.count > 1, let first = words.first?.lowercased(), namingWords.contains(first) {
            named = true
            words.removeFirst()
        }
        if words.count > 1, let last = words.last?.lowercased(), namingWords.contains(last) {
            named = true
            words.removeLast()
        }
        guard words.count == 1, let word = words.first, PlannerClause.mentionIndex(word) == nil else { return nil }
        let lowered = word.lowercased()
        // "my documents" is the root only where a path is expected ("in my documents"): not recognisable alone.
        if folder, owned, rootNames.contains(lowered) { return (.null, false) }
        // A word that says when ("morning", "friday") names no folder.
        guard !WordNormalizer.stopWords.contains(lowered), !kindWords.contains(lowered), !word.allSatisfy(\.isNumber),
            !TemporalResidue.timeWords.contains(lowered),
            word.first.map({ $0.isLetter || $0.isNumber || "._~/".contains($0) }) == true
        else { return nil }
        let slash = word.contains("/")
        let extensionFound = hasExtension(word)
        if folder {
            guard !extensionFound || word.hasSuffix("/") else { return nil }
            return (.string(word), named || slash)
        }
        guard extensionFound || slash || named else { return nil }
        return (.string(word), true)
    }

    /// A file name pattern from `words`: a word with `*` or `?`, a name with an extension, or an extension
    /// alone (".txt" → "*.txt"); nil otherwise.
    static func glob(_ words: [String]) -> JSONValue? {
        let words = words.map(trimmed).filter { !determiners.contains($0.lowercased()) && !kindWords.contains($0.lowercased()) }
        guard words.count == 1, let word = words.first, PlannerClause.mentionIndex(word) == nil else { return nil }
        if word.contains("*") || word.contains("?") { return .string(word) }
        if word.hasPrefix("."), word.count <= 7, word.dropFirst().allSatisfy({ $0.isLetter || $0.isNumber }), word.count > 1 {
            return .string("*" + word)
        }
        return hasExtension(word) ? .string(word) : nil
    }
}
