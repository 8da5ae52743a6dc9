import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``HTTPTransport`` over `URLSession`, streaming through a data delegate. (swift-corelibs-foundation
/// has no `URLSession.bytes(for:)`; a delegate's `didReceive data` calls arrive as the server flushes,
/// which is what SSE needs.) One session per request, invalidated when the request ends.
public struct URLSessionTransport: HTTPTransport {
    /// A transport.
    public init() {}

    public func send(_ request: HTTPRequest) async throws(ModelProviderError)
        -> (HTTPResponseHead, AsyncThrowingStream<[UInt8], any Error>)
    {
        guard let url = URL(string: request.url), url.scheme == "http" || url.scheme == "https" else {
            throw ModelProviderError(
                .transport, "'\(OpenAIConfiguration.redacted(request.url))' is not an http(s) URL; pass --base-url like http://localhost:11434/v1")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = Data(request.body)
        urlRequest.timeoutInterval = request.idleTimeout
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }

        let (body, bodyContinuation) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
        let delegate = StreamingDelegate(body: bodyContinuation, host: url.host ?? request.url)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = request.idleTimeout
        configuration.timeoutIntervalForResource = max(request.idleTimeout, 600)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: urlRequest)
        bodyContinuation.onTermination = { _ in
            task.cancel()
            session.invalidateAndCancel()
        }
        let head: Result<HTTPResponseHead, ModelProviderError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                delegate.setHeadContinuation(continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        switch head {
        case .success(let head): return (head, body)
        case .failure(let error):
            session.invalidateAndCancel()
            throw error
        }
    }
}

/// Forwards one data task's response head and body chunks.
private final class StreamingDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var head: CheckedContinuation<Result<HTTPResponseHead, ModelProviderError>, Never>?
        var headSent = false
    }
    private let state = Mutex(State())
    private let body: AsyncThrowingStream<[UInt8], any Error>.Continuation
    private let host: String

    init(body: AsyncThrowingStream<[UInt8], any Error>.Continuation, host: String) {
        self.body = body
        self.host = host
    }

    func setHeadContinuation(_ continuation: CheckedContinuation<Result<HTTPResponseHead, ModelProviderError>, Never>) {
        state.withLock { $0.head = continuation }
    }

    private func sendHead(_ result: Result<HTTPResponseHead, ModelProviderError>) {
        let continuation = state.withLock { state -> CheckedContinuation<Result<HTTPResponseHead, ModelProviderError>, Never>? in
            guard !state.headSent, let head = state.head else { return nil }
            state.headSent = true
            state.head = nil
            return head
        }
        continuation?.resume(returning: result)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        var headers: [String: String] = [:]
        var status = 0
        if let http = response as? HTTPURLResponse {
            status = http.statusCode
            for (name, value) in http.allHeaderFields {
                headers[String(describing: name).lowercased()] = String(describing: value)
            }
        }
        sendHead(.success(HTTPResponseHead(status: status, headers: headers)))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        body.yield([UInt8](data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            let mapped = Self.map(error, host: host)
            sendHead(.failure(mapped))
            body.finish(throwing: mapped)
        } else {
            body.finish()
        }
        session.finishTasksAndInvalidate()
    }

    static func map(_ error: any Error, host: String) -> ModelProviderError {
        guard let urlError = error as? URLError else {
            return ModelProviderError(.transport, "request to \(host) failed: \(error.localizedDescription)")
        }
        switch urlError.code {
        case .timedOut:
            return ModelProviderError(.timeout, "\(host) sent nothing within the time limit; is the model still loading? try again")
        case .cancelled:
            return ModelProviderError(.cancelled, "the request to \(host) was cancelled")
        case .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .notConnectedToInternet, .dnsLookupFailed:
            return ModelProviderError(
                .transport, "cannot reach \(host) (\(urlError.localizedDescription)); is the server running and the --base-url right?")
        default:
            return ModelProviderError(.transport, "request to \(host) failed: \(urlError.localizedDescription)")
        }
    }
}
