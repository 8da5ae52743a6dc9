import SkillJSON
import Testing

@testable import SkillMCP

/// The `tools/call` shortcut (JSONRPCToolsCall) must take the plain requests clients send, and for every
/// line it takes, read exactly what the general decoder (JSONRPCMessage) reads; everything else is left
/// to the general decoder.
@Suite struct JSONRPCToolsCallTests {
    /// What the general decoder makes of `line` when it is a `tools/call` request.
    static func general(_ line: String) -> (id: JSONValue, params: JSONValue?)? {
        guard case .request(let id, "tools/call", let params)? = try? JSONRPCMessage(line: Array(line.utf8)) else { return nil }
        return (id, params)
    }

    static func shortcut(_ line: String) -> JSONRPCToolsCall? {
        JSONRPCToolsCall(line: ArraySlice(line.utf8))
    }

    /// Whether `call` reads as the general decoder's `id` and `params`: the same id, and params holding the
    /// same name, arguments and `_meta` and nothing else.
    static func agree(_ call: JSONRPCToolsCall, id: JSONValue, params: JSONValue?) -> Bool {
        guard call.id == id, case .object(let object)? = params else { return false }
        return object["name"] == .string(call.name) && object["arguments"] == call.arguments && object["_meta"] == call.meta
            && object.count == 1 + (call.arguments == nil ? 0 : 1) + (call.meta == nil ? 0 : 1) && call.params == params
    }

    @Test("plain tools/call requests are taken, and read as the general decoder reads them")
    func plainRequestsAreTaken() throws {
        let lines = [
            #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"bench.echo","arguments":{"text":"hello"}}}"#,
            #"{"jsonrpc":"2.0","id":"req-1","method":"tools/call","params":{"name":"a","arguments":{}}}"#,
            #"  { "method" : "tools/call" , "params" : { "name" : "x.y" } , "id" : -42 , "jsonrpc" : "2.0" }  "#,
            "{\"params\":{\"name\":\"n\",\"arguments\":{\"s\":\"}]\\\"{[\",\"a\":[1,[2,{}]]}},\"id\":0,\"jsonrpc\":\"2.0\",\"method\":\"tools/call\"}\r",
            #"{"jsonrpc":"2.0","id":123456789012345678,"method":"tools/call","params":{"arguments":{"é":[]},"name":"t"}}"#,
            #"{"jsonrpc":"2.0","id":"","method":"tools/call","params":{"name":""}}"#,
            // The 2026-07-28 revision's request: its `_meta` is read too.
            #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"bench_echo","arguments":{"text":"hello"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p"}}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"_meta":{},"name":"t"}}"#,
        ]
        for line in lines {
            let taken = try #require(Self.shortcut(line), "not taken: \(line)")
            let reference = try #require(Self.general(line), "the general decoder refused: \(line)")
            #expect(Self.agree(taken, id: reference.id, params: reference.params), "\(line)")
        }
        #expect(Self.shortcut(lines[0])?.id == .int(7))
        #expect(Self.shortcut(lines[2])?.id == .int(-42))
        #expect(Self.shortcut(lines[0])?.name == "bench.echo")
        #expect(Self.shortcut(lines[0])?.arguments == ["text": "hello"])
        #expect(Self.shortcut(lines[1])?.arguments == .object([:]))
        #expect(Self.shortcut(lines[2])?.arguments == nil)
        #expect(Self.shortcut(lines[6])?.meta?["progressToken"] == "p")
        #expect(Self.shortcut(lines[0])?.meta == nil)
    }

    @Test("other messages, unusual shapes and bad lines are left to the general decoder")
    func otherLinesAreLeft() {
        let lines = [
            "",
            "   ",
            "[]",
            #"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,  // another method
            #"{"jsonrpc":"2.0","method":"tools/call","params":{}}"#,  // a notification
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,  // no params
            #"{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{}}"#,  // wrong version
            #"{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{}}"#,  // not an integer id
            #"{"jsonrpc":"2.0","id":1e3,"method":"tools/call","params":{}}"#,
            #"{"jsonrpc":"2.0","id":01,"method":"tools/call","params":{}}"#,  // leading zero
            #"{"jsonrpc":"2.0","id":1234567890123456789,"method":"tools/call","params":{}}"#,  // long: general decides
            #"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{}}"#,
            #"{"jsonrpc":"2.0","id":"a\"b","method":"tools/call","params":{}}"#,  // an escape in the id
            #"{"jsonrpc":"2.0","id":"é","method":"tools/call","params":{}}"#,  // non-ASCII id
            #"{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{}}"#,  // duplicate member
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{},"extra":true}"#,  // another member
            #"{"json\u0072pc":"2.0","id":1,"method":"tools/call","params":{}}"#,  // escaped member name
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]}"#,  // params not an object
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":}}"#,  // params do not parse
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"a":]}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}} x"#,  // trailing content
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}"#,  // unterminated
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#,  // no name
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"é"}}"#,  // non-ASCII name
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a\u0062"}}"#,  // escape in the name
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7}}"#,  // not a string
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","name":"b"}}"#,  // duplicate
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":[]}}"#,  // not an object
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","_meta":[]}}"#,  // _meta not an object
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","_meta":{},"_meta":{}}}"#,  // duplicate
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","requestState":"s"}}"#,  // an approval's retry
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","_meta":{"a":}}}"#,  // _meta does not parse
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x\"#,
        ]
        for line in lines {
            #expect(Self.shortcut(line) == nil, "taken: \(line)")
        }
    }

    @Test("arguments nested as deep as the parser allows inside the message are taken; one level deeper is left")
    func nestingDepthMatchesTheMessage() throws {
        func line(levels: Int) -> String {
            // The arguments object is one level; the message and params two more.
            let inner = String(repeating: "[", count: levels - 1) + String(repeating: "]", count: levels - 1)
            return #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":"# + inner + "}}}"
        }
        let deepest = JSONValue.maximumParseDepth - 2
        #expect(Self.shortcut(line(levels: deepest)) != nil)
        #expect(Self.general(line(levels: deepest)) != nil)
        #expect(Self.shortcut(line(levels: deepest + 1)) == nil)
        #expect(Self.general(line(levels: deepest + 1)) == nil)  // the general decoder rejects it
    }

    @Test("mutated lines: whatever the shortcut takes, the general decoder reads the same way")
    func mutatedLinesAgree() {
        let seeds = [
            #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"bench.echo","arguments":{"text":"hello"}}}"#,
            #"{ "id" : "x-1", "params" : {"name":"a","arguments":{"n":[1,2,{"k":"\"]"}]}}, "method":"tools/call", "jsonrpc":"2.0" }"#,
        ]
        let alphabet = Array(#"{}[]",:\ 0123456789-.eE"abcdijmnoprstuvwxy/"#.utf8) + [0x09, 0x0A, 0x00, 0xC3, 0xA9, 0xFF]
        var generator = SplitMix(seed: 12)
        var taken = 0
        for round in 0..<20_000 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0...(Int(generator.next() % 3)) {
                let position = Int(generator.next() % UInt64(bytes.count + 1))
                let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                switch generator.next() % 3 {
                case 0 where position < bytes.count: bytes[position] = byte
                case 1 where position < bytes.count: bytes.remove(at: position)
                default: bytes.insert(byte, at: position)
                }
            }
            guard let call = JSONRPCToolsCall(line: bytes[...]) else { continue }
            taken += 1
            guard case .request(let id, "tools/call", let params)? = try? JSONRPCMessage(line: bytes) else {
                Issue.record("taken, but the general decoder reads no tools/call: \(String(decoding: bytes, as: UTF8.self))")
                continue
            }
            #expect(Self.agree(call, id: id, params: params), "\(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(taken > 1_000)  // the mutations left many lines plain enough to take
    }

    /// The `mcp-diff` fuzz target's seeds and regressions (Tests/Fuzz/), as Tests/Fuzz/Targets/MCPCallDiffFuzz.swift
    /// reads them; `regressions/mcp-diff/twenty-digit-id-overflow` trapped on an Int64 overflow in the shortcut.
    @Test("the mcp-diff fuzz inputs: no trap, and every line taken reads as the general decoder reads it")
    func fuzzInputsAgree() {
        let inputs = FuzzCorpus.inputs("mcp-diff")
        #expect(inputs.contains { $0.name.hasPrefix("regressions/") })
        for (name, bytes) in inputs {
            guard let call = JSONRPCToolsCall(line: bytes[...]) else { continue }
            guard case .request(let id, "tools/call", let params)? = try? JSONRPCMessage(line: bytes) else {
                Issue.record("\(name): taken, but the general decoder reads no tools/call")
                continue
            }
            #expect(Self.agree(call, id: id, params: params), "\(name)")
        }
        #expect(Self.shortcut(#"{"jsonrpc":"2.0","id":999999999999999999,"method":"tools/call","params":{"name":"a"}}"#)?.id == .int(999_999_999_999_999_999))
        #expect(Self.shortcut(#"{"jsonrpc":"2.0","id":9999999999999999999,"method":"tools/call","params":{"name":"a"}}"#) == nil)
    }
}

/// A small deterministic generator (SplitMix64), so a failing mutation is the same on every run.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
