import SkillJSON
@testable import SkillMCP

/// Differential: the `tools/call` shortcut (`JSONRPCToolsCall`) against the general JSON-RPC decoder
/// (`JSONRPCMessage`). For every line the shortcut takes, the general decoder must read a `tools/call`
/// request with the same id and params holding the same name and arguments and nothing else; a line the
/// shortcut leaves alone is the general decoder's to answer, so only taken lines are compared.
func fuzzMCPCallDifferential(_ input: [UInt8]) {
    guard let taken = JSONRPCToolsCall(line: input[...]) else { return }
    guard case .request(let id, "tools/call", .object(let params)?)? = try? JSONRPCMessage(line: input) else {
        fatalError("the shortcut took a line the general decoder does not read as a tools/call request: \(String(decoding: input, as: UTF8.self))")
    }
    guard taken.id == id, params["name"] == .string(taken.name), params["arguments"] == taken.arguments, params["_meta"] == taken.meta,
        params.count == 1 + (taken.arguments == nil ? 0 : 1) + (taken.meta == nil ? 0 : 1)
    else {
        fatalError("the shortcut and the general decoder read this line differently: \(String(decoding: input, as: UTF8.self)); shortcut \(taken), general id \(id) params \(JSONValue.object(params).serialized())")
    }
}
