/// What one ``HTTPServer`` accepts and how long it waits: the bounds that keep a slow or hostile client from
/// taking the server (slowloris, huge bodies, stalled readers, too many connections).
public struct HTTPServerLimits: Sendable, Equatable {
    /// The largest request head (request line and fields), in bytes; larger: 431.
    public var maximumHeadBytes = 16 << 10
    /// The largest request body, in bytes; larger: 413 before the body is read.
    public var maximumBodyBytes = 4 << 20
    /// From a request's first byte until its head is complete; later: 408 and the connection closes.
    public var headTimeout: Duration = .seconds(10)
    /// From the head until the whole body arrived; later: 408.
    public var bodyTimeout: Duration = .seconds(30)
    /// How long an idle keep-alive connection stays open waiting for the next request.
    public var idleTimeout: Duration = .seconds(60)
    /// How long a write may wait for the client to read (a stalled reader); then the connection closes.
    public var writeTimeout: Duration = .seconds(30)
    /// Connections open at once; more are answered 503 and closed.
    public var maximumConnections = 256

    /// The defaults.
    public init() {}

    /// Milliseconds of a duration, for `poll`.
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}
