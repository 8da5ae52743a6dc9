import SkillSDK

/// `text.stats`: counts, reading time and the most frequent words of a text.
struct TextStatistics: SynchronousSkill {
    struct Arguments: Decodable {
        var text: String
        var top: Int?
    }

    let name = "stats"
    let title = "Text statistics"
    let description = """
        Counts in a text the user provides: characters, words (in Chinese and Japanese, each character \
        counts as a word), sentences, paragraphs and lines, average word \
        and sentence length, estimated reading and speaking time, and the most frequent meaningful words. \
        Use it for "how long is this", "how many words". Not for summarizing (use text.summarize) and not \
        for reading files or web pages: pass the text itself.
        """
    let parameters = ParameterSchema.object(
        [
            "text": .string("The text to measure", minLength: 1, maxLength: 1_000_000),
            "top": .integer("How many frequent words to list (default 5)", minimum: 0, maximum: 50),
        ], required: ["text"])
    let timeout = 10.0
    let summary: String? = "{words|word|words} and {characters|character|characters} in {sentences|sentence|sentences}, about {reading_time_seconds} s to read; top words: {top_words}."
    let examples = [
        "how many words are in {text}", "count the words in {text}", "text statistics for {text}",
        "how long does it take to read {text}", "list the {top} most frequent words in {text}",
        "give me statistics for the text {text}", "word count of {text}",
        "how many sentences are in {text}",
    ]

    /// Reading and speaking speeds, in words per minute.
    static let readingSpeed = 230.0
    static let speakingSpeed = 150.0
    /// Reading and speaking speeds of Chinese and Japanese, in characters per minute.
    static let cjkReadingSpeed = 500.0
    static let cjkSpeakingSpeed = 300.0

    struct WordCount: Encodable, Equatable {
        var word: String
        var count: Int
    }

    struct Output: Encodable {
        var words: Int
        var cjkCharacters: Int
        var sentences: Int
        var paragraphs: Int
        var characters: Int
        var charactersWithoutSpaces: Int
        var lines: Int
        var uniqueWords: Int
        var averageWordLength: Double
        var averageSentenceLength: Double
        var readingTimeSeconds: Int
        var speakingTimeSeconds: Int
        var topWords: [WordCount]

        enum CodingKeys: String, CodingKey {
            case words
            case cjkCharacters = "cjk_characters"
            case sentences
            case paragraphs
            case characters
            case charactersWithoutSpaces = "characters_without_spaces"
            case lines
            case uniqueWords = "unique_words"
            case averageWordLength = "average_word_length"
            case averageSentenceLength = "average_sentence_length"
            case readingTimeSeconds = "reading_time_seconds"
            case speakingTimeSeconds = "speaking_time_seconds"
            case topWords = "top_words"
        }
    }

    func run(_ arguments: Arguments, context: SkillContext) throws -> Output {
        let analysis = TextAnalysis(arguments.text)
        let words = analysis.words
        let letters = words.reduce(0) { $0 + $1.count }
        var frequencies: [String: Int] = [:]
        for word in words where TextAnalysis.isContentWord(word) { frequencies[word, default: 0] += 1 }
        let top = frequencies.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(arguments.top ?? 5).map { WordCount(word: $0.key, count: $0.value) }
        let text = arguments.text
        // Each CJK character is a word; they are read faster than words of spaced scripts.
        let cjk = words.filter { $0.count == 1 && TextAnalysis.isCJK($0.first!) }.count
        let readingMinutes = Double(words.count - cjk) / TextStatistics.readingSpeed
            + Double(cjk) / TextStatistics.cjkReadingSpeed
        let speakingMinutes = Double(words.count - cjk) / TextStatistics.speakingSpeed
            + Double(cjk) / TextStatistics.cjkSpeakingSpeed
        return Output(
            words: words.count, cjkCharacters: cjk, sentences: analysis.sentences.count, paragraphs: analysis.paragraphCount,
            characters: text.count, charactersWithoutSpaces: text.filter { !$0.isWhitespace }.count,
            lines: text.isEmpty ? 0 : text.split(separator: "\n", omittingEmptySubsequences: false).count,
            uniqueWords: Set(words).count,
            averageWordLength: TextStatistics.rounded(Double(letters) / Double(max(words.count, 1))),
            averageSentenceLength: TextStatistics.rounded(
                Double(words.count) / Double(max(analysis.sentences.count, 1))),
            readingTimeSeconds: Int((readingMinutes * 60).rounded(.up)),
            speakingTimeSeconds: Int((speakingMinutes * 60).rounded(.up)),
            topWords: Array(top))
    }

    static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
