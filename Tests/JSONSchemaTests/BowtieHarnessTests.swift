import Testing
import JSONSchema

@Suite struct BowtieHarnessTests {
    func started() -> BowtieHarness {
        var harness = BowtieHarness()
        _ = harness.handle(#"{"cmd": "start", "version": 1}"#)
        return harness
    }

    func response(_ reply: BowtieHarness.Reply) throws -> JSONValue {
        guard case .respond(let line) = reply else {
            Issue.record("expected a response, got \(reply)")
            return .null
        }
        #expect(!line.contains("\n"))
        return try JSONValue(parsing: line)
    }

    @Test func startAnnouncesTheImplementationAndDialect() throws {
        var harness = BowtieHarness()
        let start = try response(harness.handle(#"{"cmd": "start", "version": 1}"#))
        #expect(start["version"] == 1)
        #expect(start["implementation"]?["language"] == "swift")
        #expect(start["implementation"]?["name"] == "skillhost-jsonschema")
        #expect(start["implementation"]?["dialects"] == ["https://json-schema.org/draft/2020-12/schema"])
        let dialect = try response(harness.handle(#"{"cmd": "dialect", "dialect": "https://json-schema.org/draft/2020-12/schema"}"#))
        #expect(dialect == ["ok": true])
        #expect(harness.handle(#"{"cmd": "stop"}"#) == .stop)
    }

    @Test func runValidatesEachTestWithTheCaseRegistry() throws {
        var harness = started()
        let run = try response(harness.handle("""
            {"cmd": "run", "seq": 7, "case": {"description": "remote ref",
             "schema": {"$ref": "http://example.com/positive.json"},
             "registry": {"http://example.com/positive.json": {"type": "integer", "minimum": 1}},
             "tests": [{"description": "ok", "instance": 3}, {"description": "too small", "instance": 0},
                       {"description": "wrong type", "instance": "3"}]}}
            """))
        #expect(run == ["seq": 7, "results": [["valid": true], ["valid": false], ["valid": false]]])
    }

    @Test func invalidSchemaAnswersErroredWithTheSequenceNumber() throws {
        var harness = started()
        let run = try response(harness.handle(
            ##"{"cmd": "run", "seq": "abc", "case": {"description": "bad", "schema": {"$ref": "#/missing"}, "tests": [{"description": "x", "instance": 1}]}}"##))
        #expect(run["seq"] == "abc")
        #expect(run["errored"] == true)
        #expect(run["context"]?["message"]?.stringValue?.contains("cannot resolve $ref") == true)
    }

    @Test func protocolViolationsEndTheSession() {
        var fresh = BowtieHarness()
        guard case .fail(let early) = fresh.handle(#"{"cmd": "run", "seq": 1, "case": {}}"#) else {
            Issue.record("run before start must fail")
            return
        }
        #expect(early.contains("before \"start\""))
        var harness = started()
        if case .fail(let message) = harness.handle("not json") { #expect(message.contains("not JSON")) } else {
            Issue.record("a non-JSON line must fail")
        }
        if case .fail(let message) = harness.handle(#"{"cmd": "dance"}"#) { #expect(message.contains("unknown bowtie command")) } else {
            Issue.record("an unknown command must fail")
        }
        var wrongVersion = BowtieHarness()
        if case .fail = wrongVersion.handle(#"{"cmd": "start", "version": 2}"#) {} else {
            Issue.record("protocol version 2 must be refused")
        }
    }

    @Test func serveReadsLinesUntilStop() {
        var harness = BowtieHarness()
        var input = [
            #"{"cmd": "start", "version": 1}"#, "",
            #"{"cmd": "run", "seq": 1, "case": {"description": "d", "schema": {"type": "string"}, "tests": [{"description": "t", "instance": "x"}]}}"#,
            #"{"cmd": "stop"}"#, #"{"cmd": "run", "seq": 2, "case": {}}"#,
        ][...]
        var output: [String] = []
        let failure = harness.serve(readLine: { input.popFirst() }, write: { output.append($0) })
        #expect(failure == nil)
        #expect(output.count == 2)
        #expect(output.last == #"{"seq":1,"results":[{"valid":true}]}"#)
    }
}
