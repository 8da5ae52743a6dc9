import SkillAgent
import Synchronization

/// Forwards to another provider and records every request it was sent.
final class RecordingProvider: ModelProvider {
    let inner: any ModelProvider
    private let recorded = Mutex<[ModelRequest]>([])

    init(_ inner: any ModelProvider) { self.inner = inner }

    var name: String { inner.name }
    var requests: [ModelRequest] { recorded.withLock { $0 } }

    func respond(to request: ModelRequest) -> AsyncThrowingStream<ModelStreamEvent, any Error> {
        recorded.withLock { $0.append(request) }
        return inner.respond(to: request)
    }
}
