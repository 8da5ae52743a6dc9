import SkillJSON
import Synchronization

/// What the offline planner knows about one tool for scored matching: the stems of its example
/// utterances (weight 3), title (2), and description and enum values (1), and for each parameter the
/// words that stand next to its slot in the examples ("in {timezone}", "{sentences} sentences"), which
/// cue where a value is in a free sentence.
///
/// Description sentences are cut at "not" and parentheses, so "Not for the current time (use clock.now)"
/// does not make `sysinfo.uptime` answer time questions.
struct SkillVocabulary: Sendable {
    /// How a parameter's value is found in a sentence.
    enum SlotKind: Sendable, Equatable {
        /// A time zone: an IANA name, a city or an abbreviation.
        case zone
        /// A date or time (`format`, or a pattern an ISO date fits).
        case date
        /// One of the `enum` values.
        case choice
        /// An integer or a number.
        case number
        /// `true`/`false`, "yes"/"no".
        case flag
        /// A string with some other pattern: one word, only next to a cue.
        case word
        /// A file's path (a plain string named `path` whose description speaks of a file): one word with an
        /// extension or a slash ("todo.txt", "notes/todo.txt").
        case file
        /// A folder's path (`path` described as a folder): one word ("notes", "the projects folder"); "my
        /// documents" or "my files" is the root, so no value.
        case folder
        /// A file name pattern (a plain string whose description speaks of a glob): "*.md", ".txt" (as
        /// "*.txt"), "budget.xlsx".
        case glob
        /// Free text (a string without format, pattern or enum): quoted text or the rest of the sentence.
        case text
    }

    /// One parameter of the tool.
    struct Slot: Sendable {
        var name: String
        var schema: JSONValue?
        var kind: SlotKind
        var required: Bool
        /// Cue forms of the words before the slot in the examples, and of the parameter name's parts.
        var before: Set<String>
        /// Cue forms of the words after the slot in the examples.
        var after: Set<String>
        /// Parameters whose slot directly follows this one in an example ("{amount} {unit}").
        var followedBy: Set<String>
        /// Parameters whose slot directly comes before this one in an example ("{time} {from_timezone}").
        var afterSlots: Set<String> = []
        /// Cue forms of all the literal words after the slot in the examples ("as", "done" in "mark {title} as
        /// done"; "in", "my", "calendar" in "put {title} in my calendar at {start}"): free text does not end
        /// with them ("mark pay rent done" is about "pay rent").
        var trailing: Set<String> = []
    }

    /// The tool it describes.
    let spec: ToolSpec
    /// Stem → weight (the highest of its sources).
    let weights: [String: Double]
    /// The cue forms of each example's literal words (and the title's) and its slots (see
    /// ``slotToken(_:)``), for phrase similarity.
    let exampleWords: [Set<String>]
    /// The parameters, sorted by name (so readings are deterministic).
    private(set) var slots: [Slot]
    /// The required parameters as the schema lists them, also ones it does not describe (which can then
    /// never be filled, so the tool is never called with a guess).
    let required: [String]
    /// The examples and the title, parsed.
    let templates: [UtteranceTemplate]
    /// The parameters that take a date or a time.
    let dateParameters: [DateParameter]

    /// The vocabulary of `spec`, read once per process while the tool stays the same (a chat plans every
    /// request over the same tools).
    static func of(_ spec: ToolSpec) -> SkillVocabulary {
        if let known = cache.withLock({ $0[spec.name] }), known.spec == spec { return known }
        let vocabulary = SkillVocabulary(spec)
        cache.withLock { cache in
            if cache.count >= 4096 { cache.removeAll() }
            cache[spec.name] = vocabulary
        }
        return vocabulary
    }

    private static let cache = Mutex<[String: SkillVocabulary]>([:])

    init(_ spec: ToolSpec) {
        self.spec = spec
        let tool = spec.tool
        var weights: [String: Double] = [:]
        func add(_ stems: [String], _ weight: Double) {
            for stem in stems { weights[stem] = max(weights[stem] ?? 0, weight) }
        }
        let properties = tool.parameters["properties"]?.objectValue
        let numberSlots = Set((properties ?? [:]).keys.filter { Self.kind(of: $0, schema: properties?[$0]) == .number })
        for template in tool.examples.compactMap(UtteranceTemplate.init) {
            for (index, piece) in template.pieces.enumerated() {
                guard case .word(let word) = piece, let stem = WordNormalizer.stem(word) else { continue }
                // A unit after a number ("{sentences} sentences") names the parameter more than the skill.
                let afterNumber = index > 0 && template.pieces[index - 1].slotName.map(numberSlots.contains) == true
                add([stem], afterNumber ? 1 : 3)
            }
        }
        add(WordNormalizer.stems(of: tool.title), 2)
        add(WordNormalizer.stems(of: Self.affirmativePart(of: tool.description)), 1)
        for (_, schema) in properties ?? [:] {
            for name in ChoiceNames(schema)?.allNames ?? [] { add(WordNormalizer.stems(of: name), 1) }
        }
        self.weights = weights
        exampleWords = (tool.examples + [tool.title]).compactMap(UtteranceTemplate.init).map { template in
            Set(template.pieces.map { piece in
                switch piece {
                case .word(let word): Self.cueForm(word)
                case .slot(let name): Self.slotToken(name)
                }
            })
        }
        let required = tool.parameters["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        self.required = required
        self.templates = (tool.examples + (tool.title.isEmpty ? [] : [tool.title])).compactMap(UtteranceTemplate.init)
        dateParameters = DateParameter.reading(spec)
        let templates = tool.examples.compactMap(UtteranceTemplate.init)
        slots = (properties ?? [:]).keys.sorted().map { name in
            let schema = properties?[name]
            var before = Set(name.split(separator: "_").map { Self.cueForm($0) })
            var after: Set<String> = []
            var followedBy: Set<String> = []
            var afterSlots: Set<String> = []
            var trailing: Set<String> = []
            for template in templates {
                for (index, piece) in template.pieces.enumerated() where piece == .slot(name) {
                    for case .word(let word) in template.pieces[(index + 1)...] { trailing.insert(Self.cueForm(word)) }
                    if index > 0, case .word(let word) = template.pieces[index - 1] { before.insert(Self.cueForm(word)) }
                    if index > 0, case .slot(let previous) = template.pieces[index - 1] { afterSlots.insert(previous) }
                    guard index + 1 < template.pieces.count else { continue }
                    switch template.pieces[index + 1] {
                    case .word(let word): after.insert(Self.cueForm(word))
                    case .slot(let next): followedBy.insert(next)
                    }
                }
            }
            return Slot(
                name: name, schema: schema, kind: Self.kind(of: name, schema: schema), required: required.contains(name),
                before: before, after: after, followedBy: followedBy, afterSlots: afterSlots, trailing: trailing)
        }
    }

    /// The same vocabulary with only the parameters in `names`: a continuation ("… in Tokyo and Paris")
    /// may only change values the step before it has.
    func restricted(to names: Set<String>) -> SkillVocabulary {
        var copy = self
        copy.slots = slots.filter { names.contains($0.name) }
        return copy
    }

    /// The tool's name (the planner's tool name, e.g. `clock_now`).
    var name: String { spec.name }

    /// How a filled parameter counts in phrase similarity: as one word that no real word equals.
    static func slotToken(_ name: String) -> String { "{" + name + "}" }

    /// How a word compares as a cue: normalized and stripped, stop words kept ("in", "for").
    static func cueForm<S: StringProtocol>(_ word: S) -> String {
        let plain = WordNormalizer.normalized(word)
        return WordNormalizer.strip(WordNormalizer.synonyms[plain] ?? plain)
    }

    /// How the value of a parameter is found, from its name and schema.
    static func kind(of name: String, schema: JSONValue?) -> SlotKind {
        if ChoiceNames(schema) != nil { return .choice }
        let types = SlotFiller.types(of: schema)
        if types.contains("integer") || types.contains("number") { return .number }
        if types.contains("boolean") { return .flag }
        if name.lowercased().contains("zone") { return .zone }
        if let format = schema?["format"]?.stringValue, ["date", "time", "date-time"].contains(format) { return .date }
        if let pattern = schema?["pattern"]?.stringValue {
            return SlotFiller.matches("2026-01-31", pattern: pattern) ? .date : .word
        }
        let description = (schema?["description"]?.stringValue ?? "").lowercased()
        if description.contains("glob") { return .glob }
        let lowered = name.lowercased()
        if ["path", "file", "folder", "directory", "dir"].contains(lowered) || lowered.hasSuffix("_path") {
            let folder = description.hasPrefix("folder") || description.hasPrefix("directory")
                || (description.contains("folder") && !description.contains("file"))
            return folder ? .folder : .file
        }
        return .text
    }

    /// The description without what the skill is not for: each sentence is cut at the word "not", and
    /// parenthesized asides are dropped.
    static func affirmativePart(of description: String) -> String {
        var kept: [String] = []
        var depth = 0
        var negated = false
        for raw in description.split(whereSeparator: \.isWhitespace) {
            if raw.hasPrefix("(") { depth += 1 }
            if WordNormalizer.normalized(raw) == "not" { negated = true }
            if depth == 0, !negated { kept.append(String(raw)) }
            if raw.hasSuffix(")") || raw.hasSuffix("),") || raw.hasSuffix(").") { depth = max(0, depth - 1) }
            // A sentence ends at ". ", "; " or ": " outside parentheses.
            if depth == 0, let last = raw.last, ".;:".contains(last) { negated = false }
        }
        return kept.joined(separator: " ")
    }
}
