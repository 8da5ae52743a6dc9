import SkillJSON

/// Turns "Permission denied" from inside a sandboxed skill into a `denied` ``HostError`` whose remedy names
/// the capability to declare or grant, instead of a mysterious EACCES.
enum SandboxDenial {
    /// `error` unchanged unless the call ran sandboxed and the skill reported a refusal; then kind `denied`
    /// with a remedy like "run 'skillhost grant ID network:tcp:443'".
    static func explain(_ error: HostError, sandbox: SandboxPolicy?, call: SkillCall) -> HostError {
        guard sandbox != nil else { return error }
        let text = error.message.lowercased()
        let refused = error.kind == .denied
            || (error.kind == .skillFailed && (text.contains("permission denied") || text.contains("operation not permitted")))
        guard refused else { return error }
        let capability = guess(from: error.message, arguments: call.arguments)
        var explained = error
        explained.kind = .denied
        explained.message = error.message
            + "; the plugin's sandbox refused it: declare it in the manifest's \"capabilities\" or run 'skillhost grant \(call.pluginID) \(capability)'"
            + " if you trust it with that ('skillhost inspect \(call.pluginID)' shows what it may do)"
        return explained
    }

    /// The capability word most likely missing, from the error message and the call's arguments.
    static func guess(from message: String, arguments: JSONValue) -> String {
        let text = message.lowercased()
        let values = arguments.objectValue?.members.map(\.value) ?? []
        if text.contains("connect") || text.contains("socket") || text.contains("network") {
            let port = arguments["port"]?.intValue ?? values.compactMap(\.intValue).first { (1...65535).contains($0) }
            return port.map { "network:tcp:\($0)" } ?? "network:tcp:PORT"
        }
        if text.contains("fork") || text.contains("exec") || text.contains("spawn") || text.contains("process") {
            return "processes"
        }
        let access = text.contains("writ") || text.contains("creat") ? "read-write" : "read"
        guard let home = HostPaths.homeDirectory else { return "home:PATH:\(access)" }
        // The path the plugin was refused: one of the call's arguments, or one its message names (a plugin
        // that resolves a relative argument says which real path it could not open).
        let named = message.split(whereSeparator: { " \"'(),;".contains($0) }).map(String.init).filter { $0.hasPrefix("/") }
        let candidates = values.compactMap(\.stringValue) + named
        if let path = candidates.first(where: { $0.hasPrefix(home + "/") || $0.hasPrefix("~/") }) {
            var relative = path.hasPrefix("~/") ? String(path.dropFirst(2)) : String(path.dropFirst(home.count + 1))
            while relative.hasSuffix("/") || relative.hasSuffix(":") || relative.hasSuffix(".") { relative.removeLast() }
            if !relative.isEmpty { return "home:\(relative):\(access)" }
        }
        return "home:PATH:\(access)"
    }
}
