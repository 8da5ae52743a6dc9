import Foundation
import SkillHostCore
import SkillJSON
import Synchronization
import Testing

@testable import SkillCalls

/// The thread that writes a server's rows (``StoreCallRecorder/RowWriter``) commits whenever the store's
/// finish log asks to, row by row, even inside a batch gathered while the thread waited: otherwise the
/// rows past the log's map were written with a system call each.
@Suite struct RowWriterTests {
    @Test func aBatchCommitsRightAfterARowThatAsksForIt() throws {
        let events = Mutex<[String]>([])
        let firstWrite = DispatchSemaphore(value: 0)
        let allAdded = DispatchSemaphore(value: 0)
        let writer = StoreCallRecorder.RowWriter(
            write: { row in
                events.withLock { $0.append("write \(row.call.request.callID)") }
                if row.call.request.callID == "c0" {
                    firstWrite.signal()
                    allAdded.wait()  // the other rows pile up meanwhile: they come as one batch
                }
                // The store wants a commit after every third row.
                return Int(row.call.request.callID.dropFirst())! % 3 == 2
            },
            commit: { events.withLock { $0.append("commit") } })
        let tool = ToolCallerTests.tool("text.echo")
        func row(_ index: Int) -> StoreCallRecorder.PendingRow {
            var request = ToolCallerTests.request(tool, .value(["text": "hi"]))
            request.callID = "c\(index)"
            return StoreCallRecorder.PendingRow(
                call: RecordedCall(request, arguments: ["text": "hi"], sessionID: "s"),
                outcome: ToolCallOutcome(tool: tool, result: .success(["text": "hi"]), seconds: 0.001),
                startedMilliseconds: 0, context: [:])
        }
        writer.add(row(0))
        firstWrite.wait()
        for index in 1...20 { writer.add(row(index)) }
        allAdded.signal()
        writer.drain()
        let seen = events.withLock { $0 }
        let writes = seen.indices.filter { seen[$0].hasPrefix("write") }
        #expect(writes.count == 21)
        for index in writes where Int(seen[index].dropFirst("write c".count))! % 3 == 2 {
            #expect(index + 1 < seen.count && seen[index + 1] == "commit", "no commit right after \(seen[index]), which asked for one")
        }
        #expect(seen.last == "commit")
    }
}
