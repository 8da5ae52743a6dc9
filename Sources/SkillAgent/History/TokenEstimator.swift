/// A rough, tokenizer-free count of the tokens a message costs: about four characters per token plus a
/// fixed overhead per message and per tool call. Good enough to keep requests under a budget.
public enum TokenEstimator {
    /// Estimated tokens of one message.
    public static func tokens(in message: ChatMessage) -> Int {
        var characters = message.content.count
        var overhead = 4
        for call in message.toolCalls {
            characters += call.name.count + call.argumentsText.count + call.id.count
            overhead += 6
        }
        return overhead + (characters + 3) / 4
    }

    /// Estimated tokens of several messages.
    public static func tokens(in messages: [ChatMessage]) -> Int {
        messages.reduce(0) { $0 + tokens(in: $1) }
    }
}
