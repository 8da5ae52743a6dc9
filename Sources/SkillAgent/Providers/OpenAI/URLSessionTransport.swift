/// The transport the OpenAI provider uses by default. It was once `URLSession`; it is now
/// ``SocketHTTPTransport`` (POSIX sockets and OpenSSL), which keeps FoundationNetworking and libcurl out of
/// every `skillhost` process. The name stays so code that constructs it keeps working.
public typealias URLSessionTransport = SocketHTTPTransport
