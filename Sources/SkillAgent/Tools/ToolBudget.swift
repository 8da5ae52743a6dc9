/// How many tools, and how many tokens of tool definitions, one model request may carry (issue 13: the
/// bundled skills alone filled a small local model's 2,048-token context).
public struct ToolBudget: Sendable, Equatable {
    /// The most tools offered in one request (``FindSkillsTool`` included).
    public var maxTools: Int
    /// The most estimated tokens of tool definitions in one request.
    public var maxTokens: Int

    /// The default number of tools.
    public static let defaultMaxTools = 16
    /// The default context size assumed when none is configured (`--context-tokens`).
    public static let defaultContextTokens = 8192
    /// The share of the context that tool definitions may take.
    public static let contextShare = 0.25

    /// A budget of `maxTools` tools and `maxTokens` tokens.
    public init(maxTools: Int = ToolBudget.defaultMaxTools, maxTokens: Int) {
        self.maxTools = max(1, maxTools)
        self.maxTokens = max(1, maxTokens)
    }

    /// A budget of `maxTools` tools and 25 % of a context of `contextTokens` tokens.
    public init(maxTools: Int = ToolBudget.defaultMaxTools, contextTokens: Int = ToolBudget.defaultContextTokens) {
        self.init(maxTools: maxTools, maxTokens: Int(Double(max(1, contextTokens)) * Self.contextShare))
    }

    /// The estimated tokens of one tool definition as the OpenAI encoder sends it (about four characters a
    /// token, plus a few for the wrapping).
    public static func tokens(of spec: ToolSpec) -> Int {
        let characters = OpenAIRequestEncoder.encode(spec).serialized().count
        return 6 + (characters + 3) / 4
    }

    /// The estimated tokens of several tool definitions.
    public static func tokens(of specs: [ToolSpec]) -> Int { specs.reduce(0) { $0 + tokens(of: $1) } }
}
