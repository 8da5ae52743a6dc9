import SkillSDK

/// `text.keywords`: the words and two-word phrases that characterize a text.
struct Keywords: SynchronousSkill {
    struct Arguments: Decodable {
        var text: String
        var count: Int?
    }

    let name = "keywords"
    let title = "Keywords of a text"
    let description = """
        The words and two-word phrases that characterize a text the user provides, ranked by how often \
        they occur outside common stop words. Use it to tag or title notes, or to see what a text is about. \
        Not a summary (use text.summarize) and not a search in other texts.
        """
    let parameters = ParameterSchema.object(
        [
            "text": .string("The text to analyse", minLength: 1, maxLength: 1_000_000),
            "count": .integer("How many keywords to return (default 10)", minimum: 1, maximum: 50),
        ], required: ["text"])
    let timeout = 10.0
    let summary: String? = "Keywords: {summary}."
    let examples = [
        "keywords of {text}", "what is {text} about", "tag {text}", "give me {count} keywords for {text}",
        "extract keywords from {text}",
    ]

    struct Keyword: Encodable, Equatable {
        var keyword: String
        var count: Int
    }

    struct Output: Encodable {
        /// The keywords, comma-separated, for reading at a glance.
        var summary: String
        var keywords: [Keyword]
    }

    func run(_ arguments: Arguments, context: SkillContext) throws -> Output {
        var counts: [String: Int] = [:]
        for sentence in TextAnalysis.sentences(in: arguments.text) {
            let words = TextAnalysis.words(in: sentence)
            for (position, word) in words.enumerated() where TextAnalysis.isContentWord(word) {
                counts[word, default: 0] += 1
                if position + 1 < words.count, TextAnalysis.isContentWord(words[position + 1]) {
                    counts[word + " " + words[position + 1], default: 0] += 1
                }
            }
        }
        // A phrase counts when it repeats; it then outranks its words at the same count.
        let ranked = counts.filter { !$0.key.contains(" ") || $0.value > 1 }.sorted { lhs, rhs in
            if lhs.value != rhs.value { return lhs.value > rhs.value }
            let lhsWords = lhs.key.split(separator: " ").count
            let rhsWords = rhs.key.split(separator: " ").count
            return lhsWords != rhsWords ? lhsWords > rhsWords : lhs.key < rhs.key
        }
        let keywords = ranked.prefix(arguments.count ?? 10).map { Keyword(keyword: $0.key, count: $0.value) }
        return Output(summary: keywords.map(\.keyword).joined(separator: ", "), keywords: keywords)
    }
}
