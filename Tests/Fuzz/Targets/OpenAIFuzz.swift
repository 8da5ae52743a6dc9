@testable import SkillAgent

/// The OpenAI and Anthropic response decoders on a whole reply body, and the error summariser.
func fuzzOpenAI(_ input: [UInt8]) {
    _ = try? OpenAIResponseDecoder.reply(from: input)
    _ = OpenAIResponseDecoder.errorSummary(from: input)
    _ = try? AnthropicResponseDecoder.reply(from: input)
}
