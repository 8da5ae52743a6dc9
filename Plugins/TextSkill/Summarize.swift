import SkillSDK

/// `text.summarize`: an extractive summary of a text.
struct Summarize: SynchronousSkill {
    struct Arguments: Decodable {
        var text: String
        var sentences: Int?
    }

    let name = "summarize"
    let title = "Summarize a text"
    let description = """
        An extractive summary of a text the user provides: picks its most representative sentences (those \
        that share the most meaningful words with the rest of the text) and returns them in their original \
        order, unchanged. Use it to shorten articles, notes and messages. Not a paraphrase or translation, \
        and not for texts of one or two sentences; not for files or web pages: pass the text itself.
        """
    let parameters = ParameterSchema.object(
        [
            "text": .string("The text to summarize", minLength: 1, maxLength: 1_000_000),
            "sentences": .integer("How many sentences to keep (default 3)", minimum: 1, maximum: 20),
        ], required: ["text"])
    let timeout = 10.0
    let summary: String? = "In {sentences.count} of {original_sentences} sentences: {summary}"
    let examples = [
        "summarize {text}", "summarize this: {text}", "give me a summary of {text}",
        "summarize {text} in {sentences} sentences", "summarize {text} in {sentences} sentence",
        "what are the key points of {text}", "tl;dr {text}",
    ]

    struct Output: Encodable {
        var summary: String
        var sentences: [String]
        var sentenceIndices: [Int]
        var originalSentences: Int
        var compressionRatio: Double

        enum CodingKeys: String, CodingKey {
            case summary, sentences
            case sentenceIndices = "sentence_indices"
            case originalSentences = "original_sentences"
            case compressionRatio = "compression_ratio"
        }
    }

    func run(_ arguments: Arguments, context: SkillContext) throws -> Output {
        let analysis = TextAnalysis(arguments.text)
        let chosen = try Summarize.rank(analysis.sentences, context: context).prefix(arguments.sentences ?? 3).sorted()
        let picked = chosen.map { String(analysis.sentences[$0]) }
        let summary = picked.joined(separator: " ")
        return Output(
            summary: summary, sentences: picked, sentenceIndices: chosen, originalSentences: analysis.sentences.count,
            compressionRatio: (Double(summary.count) / Double(max(arguments.text.count, 1)) * 100).rounded() / 100)
    }

    /// Sentence indices, best first: the sum of the sentence's content-word frequencies, divided by the square
    /// root of its length (so long sentences do not win by size alone), with a small bonus for the opening one.
    static func rank(_ sentences: [Substring], context: SkillContext) throws(SkillError) -> [Int] {
        let sentenceWords = sentences.map { TextAnalysis.words(in: $0).filter(TextAnalysis.isContentWord) }
        var frequencies: [String: Int] = [:]
        for words in sentenceWords { for word in Set(words) { frequencies[word, default: 0] += 1 } }
        var scores: [(index: Int, score: Double)] = []
        for (index, words) in sentenceWords.enumerated() {
            if index % 1000 == 999 { try context.checkCancellation() }
            let total = words.reduce(0.0) { $0 + Double(frequencies[$1, default: 0]) }
            var score = words.isEmpty ? 0 : total / Double(words.count).squareRoot()
            if index == 0 { score *= 1.2 }
            scores.append((index, score))
        }
        return scores.sorted { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }.map(\.index)
    }
}
