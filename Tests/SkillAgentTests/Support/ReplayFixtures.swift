import Foundation
import Testing

extension ReplayServer.Response {
    /// A recorded SSE stream from Fixtures/openai.
    static func stream(_ fixture: String, pieceSize: Int = 17) -> ReplayServer.Response {
        ReplayServer.Response(status: 200, headers: ["Content-Type": "text/event-stream"], body: Fixture.bytes(fixture), pieceSize: pieceSize)
    }

    /// A recorded JSON body from Fixtures/openai.
    static func json(_ fixture: String, status: Int = 200, headers: [String: String] = [:]) -> ReplayServer.Response {
        ReplayServer.Response(
            status: status, headers: headers.merging(["Content-Type": "application/json"]) { first, _ in first },
            body: Fixture.bytes(fixture), pieceSize: 0)
    }
}

/// Recorded responses under Fixtures/openai.
enum Fixture {
    static func bytes(_ name: String) -> [UInt8] {
        let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/openai")
        guard let url, let data = try? Data(contentsOf: url) else {
            Issue.record("missing fixture Fixtures/openai/\(name)")
            return []
        }
        return [UInt8](data)
    }
}
