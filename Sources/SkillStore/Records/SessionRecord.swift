/// One stored conversation.
public struct SessionRecord: Sendable, Equatable {
    /// The session id (a lowercase UUID for sessions the CLI starts).
    public var id: String
    /// The first user sentence, shortened; "" until there is one.
    public var title: String
    /// The model's name when the session started.
    public var model: String
    /// Unix milliseconds of creation.
    public var createdMilliseconds: Int64
    /// Unix milliseconds of the last message or call.
    public var lastActiveMilliseconds: Int64
    /// Messages stored.
    public var messageCount: Int
    /// Skill calls stored.
    public var callCount: Int

    /// A record with these parts.
    public init(
        id: String, title: String, model: String, createdMilliseconds: Int64, lastActiveMilliseconds: Int64,
        messageCount: Int = 0, callCount: Int = 0
    ) {
        self.id = id
        self.title = title
        self.model = model
        self.createdMilliseconds = createdMilliseconds
        self.lastActiveMilliseconds = lastActiveMilliseconds
        self.messageCount = messageCount
        self.callCount = callCount
    }
}
