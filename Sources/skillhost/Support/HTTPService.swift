import Foundation
import Glibc
import SkillCalls
import SkillHTTP
import SkillHostCore
import SkillMCP
import SkillPosix
import Synchronization

/// `skillhost mcp --http`: the HTTP server, the MCP transport on it, the change watcher, and a clean stop on
/// SIGINT or SIGTERM (in-flight requests answered, listen streams closed).
enum HTTPService {
    static func run(
        _ parsed: ParsedArguments, address: String, host: SkillHost, configuration: MCPServerConfiguration, log: @escaping MCPServer.Sink
    ) async throws -> Int32 {
        let (bindHost, port) = try split(address)
        var limits = HTTPServerLimits()
        if let text = parsed.options["--max-connections"] {
            guard let value = Int(text), value > 0 else { throw UsageError("--max-connections needs a positive integer, not \(text)") }
            limits.maximumConnections = value
        }
        var http = MCPHTTPConfiguration()
        if let text = parsed.options["--max-requests-per-token"] {
            guard let value = Int(text), value > 0 else { throw UsageError("--max-requests-per-token needs a positive integer, not \(text)") }
            http.maximumRequestsPerToken = value
        }
        http.allowedOrigins = list(parsed.options["--allow-origin"])
        http.authorizationServers = list(parsed.options["--authorization-server"])
        http.resource = parsed.options["--resource"]
        if let resource = http.resource, !(resource.hasPrefix("https://") || resource.hasPrefix("http://")) {
            throw UsageError("--resource must be the endpoint's URL (https://host/mcp), not \(resource)")
        }
        http.verbose = configuration.verbose
        var tls: TLSServerContext?
        switch (parsed.options["--tls-cert"], parsed.options["--tls-key"]) {
        case (let certificate?, let key?):
            do {
                tls = try TLSServerContext(certificateFile: certificate, keyFile: key)
            } catch {
                log("error: \(error)")
                return ExitCode.failure
            }
            http.secure = true
        case (nil, nil): break
        default: throw UsageError("--tls-cert and --tls-key go together")
        }
        var quiet = configuration
        quiet.verbose = false  // the transport logs one line per request
        let serverConfiguration = quiet
        let tokens = MCPTokenVerifier(store: host.registryStore, resource: http.resource)
        // Calls of every connection run on one loop thread that collects their workers' replies; the requests
        // of one read share one look at the host's files and at the registry's tokens.
        let calls = MCPCallLoop(woke: {
            host.beginCallBatch()
            tokens.beginBatch()
        })
        var backend = HostSkillBackend(host: host)
        backend.queuesCalls = calls.replyPoller != nil
        // The registry's MCP servers: their tools beside native skills, their skills beside instruction skills
        // (re-exported under skill://SERVER/…, verified on every read), as over stdio.
        let sources = MCPSourceText.backend(parsed, host: host, base: backend)
        let remoteSkills = ((try? host.mcpServers()) ?? []).isEmpty ? nil : MCPSkillCatalog(sources: sources)
        let skills = HostInstructionSkillSource(host: host, remote: remoteSkills)
        let sessionID = MCPServer.newSessionID()
        let (caller, recorder) = MCPCommand.makeCaller(
            parsed, host: host, backend: backend, configuration: configuration, sessionID: sessionID, log: log,
            sources: sources, remoteSkills: remoteSkills)
        let stateless = MCPServer(
            configuration: serverConfiguration, caller: caller, skills: skills, send: { _ in }, log: log,
            callExecutor: calls.executor, replyPoller: calls.replyPoller)
        let sessions = Atomic<Int>(0)
        let transport = MCPHTTPTransport(
            configuration: http, stateless: stateless,
            makeSession: {
                // Each session numbers its calls after a prefix of its own (call ids are unique in the history).
                var configuration = serverConfiguration
                configuration.callIDPrefix = "\(sessionID)-s\(sessions.wrappingAdd(1, ordering: .relaxed).newValue)"
                return MCPServer(
                    configuration: configuration, caller: caller, skills: skills, send: { _ in }, log: log,
                    callExecutor: calls.executor, replyPoller: calls.replyPoller)
            },
            tokens: tokens, log: log)
        let server: HTTPServer
        do {
            server = try HTTPServer(host: bindHost, port: port, limits: limits, tls: tls, log: log) { transport.handle($0) }
        } catch {
            log("error: \(error)")
            return ExitCode.failure
        }
        // Caught from here on: a SIGTERM sent as soon as the "serving" line is read is not lost.
        let stopSignals = Posix.StopSignals.install()
        let watcher = MCPChangeWatcher(paths: [host.paths.registry, host.paths.plugins] + skills.watchedPaths) {
            for each in transport.servers { each.refresh() }
        }
        sources.toolsChanged.withLock { $0 = { watcher.poke() } }
        watcher.start()
        // The servers' skills listed before the first request, so a listing answers without blocking a thread.
        if let remoteSkills { _ = await remoteSkills.all() }
        stateless.refresh()
        // The server's event loop runs on the call loop's thread, where its requests' calls run.
        if calls.executor != nil {
            calls.serve(server)
        } else {
            server.start()
        }
        let shown = bindHost.contains(":") ? "[\(bindHost)]" : bindHost
        log("mcp: serving \(http.secure ? "https" : "http")://\(shown):\(server.port)\(http.path) (protocol 2026-07-28 and 2024-11-05 to 2025-11-25)")
        if !tokens.hasTokens {
            log("mcp: warning: the registry \(host.paths.registry) has no access tokens, so every request is refused (401); create one with 'skillhost token create NAME'")
        }
        await waitForStopSignal(stopSignals)
        log("mcp: stopping")
        transport.stop()
        server.stop()
        watcher.stop()
        await stateless.finish()
        calls.stop()
        await host.shutdown()
        try? recorder?.store.flushFinishes()
        return ExitCode.success
    }

    /// `HOST:PORT`, `[::1]:PORT`, `:PORT` or `PORT` (host 127.0.0.1).
    static func split(_ address: String) throws(UsageError) -> (String, UInt16) {
        var host = "127.0.0.1"
        var portText = address
        if address.hasPrefix("[") , let close = address.firstIndex(of: "]") {
            host = String(address[address.index(after: address.startIndex)..<close])
            portText = String(address[address.index(after: close)...].drop { $0 == ":" })
        } else if let colon = address.lastIndex(of: ":") {
            let given = address[..<colon]
            if !given.isEmpty { host = String(given) }
            portText = String(address[address.index(after: colon)...])
        }
        guard let port = UInt16(portText) else {
            throw UsageError("--http needs [HOST:]PORT with a port from 0 to 65535, not \(address)")
        }
        return (host, port)
    }

    private static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Returns when SIGINT or SIGTERM arrived (``Posix/StopSignals``, installed now unless given), waiting on
    /// a thread of its own.
    static func waitForStopSignal(_ descriptor: Int32 = Posix.StopSignals.install()) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                Posix.StopSignals.wait(descriptor)
                continuation.resume()
            }
            thread.name = "skillhost-stop-signals"
            thread.start()
        }
    }
}
