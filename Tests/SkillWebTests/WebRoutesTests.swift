import Foundation
import SkillAgent
import SkillCalls
import SkillHostCore
import SkillJSON
import SkillStore
import SkillWorkflows
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

@testable import SkillWeb

/// The page's API refuses each bad request in one line with its status (the browser test covers the good
/// paths): a server in this process, the offline model, an empty plugins folder, raw HTTP over a socket.
@Suite(.serialized) struct WebRoutesTests {
    final class World {
        let root = TestPackage.temporaryDirectory("skillhost-web-routes")
        let server: WebServer
        let cookie: String
        let host: SkillHost
        /// The MCP servers' backend, with `sources`.
        var mcp: MCPSourceBackend?

        init(sources: Bool = false, library: (any InstructionLibrary)? = nil) throws {
            try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
            host = SkillHost(
                paths: HostPaths(plugins: root + "/plugins", registry: root + "/skill_registry.json", cache: root + "/cache", data: root + "/data", skills: root + "/skills"),
                helperExecutable: try TestPackage.skillhostBinary())
            let skills = HostSkillBackend(host: host)
            var setup = WebChatSetup(
                host: host, store: try HistoryStore(directory: root + "/state"), stateDirectory: root + "/state",
                provider: ProviderSelection.offline.makeProvider(environment: [:]), skills: skills, configuration: AgentConfiguration(),
                environment: [:], warn: { _ in })
            setup.library = library
            if sources {
                // What the CLI's ToolSources stacks: MCP servers' tools (and, here, the workflows folder).
                let mcp = MCPSourceBackend(
                    base: skills, host: host,
                    launcher: MCPServerLauncher(hostExecutable: try TestPackage.skillhostBinary(), paths: host.paths))
                setup.tools = mcp
                setup.mcpSources = mcp
                setup.workflows = InstalledWorkflows(folder: root + "/workflows")
                self.mcp = mcp
            }
            // As `skillhost ui` does (without flags or environment): the registry's chat object, read again.
            let host = host
            setup.reload = {
                let registry = try host.registryStore.read()
                let settings = try ChatSettings(registry: registry.chat, file: registry.file)
                let selection = try ProviderSelection.resolve(
                    environment: [:], registrySetting: settings.provider, baseURLFlag: nil, modelFlag: nil, offline: false,
                    registryBaseURL: settings.baseURL, registryModel: settings.model)
                var configuration = AgentConfiguration()
                settings.apply(to: &configuration)
                return (selection.makeProvider(environment: [:]), configuration)
            }
            server = try WebServer(chat: WebChat(setup: setup, events: WebEvents()), port: 0)
            server.start()
            let url = try #require(server.url)
            let token = String(url.split(separator: "=").last!)
            let signIn = try Self.send("GET /?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n", port: server.port)
            let setCookie = signIn.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") } ?? ""
            cookie = String(setCookie.dropFirst("Set-Cookie: ".count).split(separator: ";")[0])
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// Sends one request as the page would (cookie, Origin) and returns the whole answer.
        func request(_ method: String, _ target: String, type: String = "application/json", body: String = "") throws -> (status: Int, head: String, body: String) {
            let origin = "http://127.0.0.1:\(server.port)"
            let text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: \(origin)\r\nCookie: \(cookie)\r\n"
                + "Content-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
            // The Skills tab's GETs and chat, open and retry are answered on threads of their own.
            let threaded = (method == "GET" && target.hasPrefix("/api/skills")) || ["/api/chat", "/api/open", "/api/retry"].contains(target)
            let answer = try Self.send(text, port: server.port, halfClose: !threaded)
            let parts = answer.components(separatedBy: "\r\n\r\n")
            let status = answer.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return (status, parts[0], parts.dropFirst().joined(separator: "\r\n\r\n"))
        }

        /// Sends `text` and reads to the close. `halfClose`: shuts the writing side after the request (the
        /// server then sees the client gone as soon as it answered; an answer made on another thread — the
        /// Skills tab's — needs the request to say `Connection: close` and the socket to stay open instead).
        static func send(_ text: String, port: UInt16, halfClose: Bool = true) throws -> String {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw TestSetupError("cannot connect to 127.0.0.1:\(port)") }
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }
            if halfClose { shutdown(descriptor, Int32(SHUT_WR)) }
            var answer: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count <= 0 { break }
                answer += buffer[0..<count]
            }
            return String(decoding: answer, as: UTF8.self)
        }
    }

    /// An MCP server's skills as the page's chat library holds them: `SERVER:PATH` names, loaded only when
    /// activated (`tampered` fails its verification).
    final class RemoteLibrary: InstructionLibrary {
        let loads = Mutex<[String]>([])
        func enabledSkills() throws(HostError) -> [(name: String, description: String)] {
            [("docs:pdf-tools/forms", "Fill forms"), ("docs:tampered", "Changed on the server")]
        }
        func skill(named name: String) throws(HostError) -> InstructionSkill {
            throw HostError(.skillFailed, "the page must not load \(name) on its request's thread")
        }
        func loadSkill(named name: String) async throws(HostError) -> InstructionSkill {
            loads.withLock { $0.append(name) }
            guard name == "docs:pdf-tools/forms" else {
                throw HostError(.invalidPlugin, "MCP server docs's skill tampered: SKILL.md has SHA-256 1111, its entry says 0000; ask the server's owner")
            }
            return InstructionSkill(name: name, frontmatter: ["name": "forms", "description": "Fill forms"], body: "Use blue ink.\n", folder: "", files: [])
        }
        func read(skill: String, path: String, offset: Int, limit: Int) throws(HostError) -> (bytes: [UInt8], size: Int64) { ([], 0) }
    }

    /// `/SERVER:PATH` in the page's chat activates an MCP server's skill as `skillhost chat` does: the skill is
    /// loaded (fetched, verified) off the request, its instructions go in front of the message; one that fails
    /// to load is said in a notice and nothing is sent; one not offered is refused in one line (400).
    @Test func aSlashServerPathActivatesAnMCPSkillInThePagesChat() async throws {
        let library = RemoteLibrary()
        let world = try World(library: library)
        let unknown = try world.request("POST", "/api/chat", body: #"{"text":"/docs:nothing go"}"#)
        #expect(unknown.status == 400 && unknown.body.contains("/docs:nothing is not an enabled instruction skill") && unknown.body.contains("/docs:pdf-tools/forms"), "\(unknown)")
        let sent = try world.request("POST", "/api/chat", body: #"{"text":"/docs:pdf-tools/forms the tax form"}"#)
        #expect(sent.status == 202, "\(sent)")
        let session = try #require(try JSONValue(parsing: Array(sent.body.utf8))["session"]?.stringValue)
        let store = try HistoryStore(directory: world.root + "/state")
        var user: String?
        for _ in 0..<200 where user == nil {
            user = try store.messages(session: session).first { $0.role == "user" }?.content
            if user == nil { try await Task.sleep(for: .milliseconds(25)) }
        }
        let message = try #require(user, "the turn recorded the user's message")
        #expect(message.hasPrefix("<activated_skill name=\"docs:pdf-tools/forms\">") && message.contains("Use blue ink.") && message.hasSuffix("the tax form"), "\(message)")
        // Wait for that turn to end: the offline planner answered from the activation in the message, without
        // activating the skill a second time (it did, and this check raced it). Then a skill that fails
        // verification: the request is taken, nothing is sent.
        for _ in 0..<200 where world.server.chat.isRunning { try await Task.sleep(for: .milliseconds(25)) }
        #expect(library.loads.withLock { $0 } == ["docs:pdf-tools/forms"])
        let answer = try store.messages(session: session).last { $0.role == "assistant" }?.content ?? ""
        #expect(answer.contains("docs:pdf-tools/forms covers this") && answer.contains("> Use blue ink."), "\(answer)")
        let tampered = try world.request("POST", "/api/chat", body: #"{"text":"/docs:tampered go"}"#)
        #expect(tampered.status == 202, "\(tampered)")
        for _ in 0..<200 where library.loads.withLock({ $0.count }) < 2 || world.server.chat.isRunning { try await Task.sleep(for: .milliseconds(25)) }
        #expect(try store.messages(session: session).filter { $0.role == "user" }.count == 1, "nothing was sent for the skill that failed to load")
    }

    @Test func eachBadRequestIsRefusedInOneLineWithItsStatus() async throws {
        let world = try World()
        #expect(world.cookie.hasPrefix("skillhost_ui="))
        let cases: [(String, String, String, String, Int, String)] = [
            ("POST", "/api/chat", "text/plain", #"{"text":"hi"}"#, 415, "Content-Type 'text/plain' is refused; the API takes application/json from the page"),
            ("POST", "/api/chat", "application/json", "{not json", 400, "the body is not JSON"),
            ("POST", "/api/chat", "application/json", "{}", 400, #"the body needs \"text\": the message"#),
            ("POST", "/api/chat", "application/json", #"{"text":"   "}"#, 400, "the message is empty"),
            ("PUT", "/api/chat", "application/json", "{}", 405, "PUT /api/chat is not something this server does"),
            ("GET", "/api/nothing", "application/json", "", 404, "no page /api/nothing; the page is at /"),
            ("GET", "/api/sessions/nope", "application/json", "", 404, "no stored session nope"),
            ("DELETE", "/api/sessions/nope", "application/json", "", 404, "no stored session nope"),
            ("POST", "/api/approve", "application/json", #"{"id":"approval-9","allow":true}"#, 409, "question approval-9 is no longer waiting"),
            ("POST", "/api/retry", "application/json", #"{"call_id":"call_x"}"#, 404, "no call call_x in this page's conversation"),
            ("POST", "/api/open", "application/json", #"{"session":"nope"}"#, 404, "nope"),
            ("POST", "/api/skills/nope.skill", "application/json", #"{"enabled":false}"#, 404, #"no plugin or skill \"nope.skill\""#),
            ("POST", "/api/settings", "application/json", #"{"max_steps":"many"}"#, 400, "chat.max_steps needs a whole number from 0 to 100, not 'many'"),
            ("POST", "/api/settings", "application/json", #"{"base_url":"http://127.0.0.1:9/v1"}"#, 400, "not saved: no model named for"),
            ("POST", "/api/approval", "application/json", #"{"skill":"x.y","approval":"sometimes"}"#, 400, "approval 'sometimes' is not one of: ask, allow, deny"),
            ("GET", "/api/files?session=s&path=..%2Fhistory.sqlite3", "application/json", "", 403, "leaves the session's workspace"),
            ("GET", "/api/files?session=s&path=nothing.txt", "application/json", "", 404, "no file nothing.txt"),
            ("POST", "/api/add-skill?name=run.sh", "application/zip", "PK", 400, "is not a .zip or .skill archive's"),
            ("POST", "/api/add-skill?name=x.zip", "text/plain", "PK", 415, "upload the archive as application/zip"),
            ("POST", "/api/add-skill?name=x.zip", "application/zip", "not a zip", 400, "x.zip"),
        ]
        for (method, target, type, body, status, line) in cases {
            let answer = try world.request(method, target, type: type, body: body)
            #expect(answer.status == status, "\(method) \(target): \(answer.head)\n\(answer.body)")
            #expect(answer.body.contains(line), "\(method) \(target): \(answer.body)")
            #expect(answer.body.filter { $0 == "\n" }.count <= 1, "one line: \(answer.body)")
            #expect(answer.head.contains("Content-Security-Policy: default-src 'none'"), "\(method) \(target)")
        }
        await world.server.stop()
        // A refused save left the registry's chat object as it was.
        let registry = (try? String(contentsOfFile: world.root + "/skill_registry.json", encoding: .utf8)) ?? ""
        #expect(!registry.contains("base_url"), "\(registry)")
    }

    /// An MCP server that does not answer and workflows that cannot run: the Skills tab says so in one line
    /// each, and the server's switch still works (the registry write starts no server).
    @Test func brokenMCPServersAndWorkflowsAreShownWithTheirReason() async throws {
        let world = try World(sources: true)
        try world.host.addMCPServer(MCPServerEntry(name: "mute", transport: .stdio(command: "/bin/false", arguments: [])))
        try FileManager.default.createDirectory(atPath: world.root + "/workflows", withIntermediateDirectories: true)
        try "name: bad\nsteps: 7\n".write(toFile: world.root + "/workflows/bad.yaml", atomically: true, encoding: .utf8)
        try "name: lost\nsteps:\n  - id: one\n    skill: nothing.here\n".write(
            toFile: world.root + "/workflows/lost.yaml", atomically: true, encoding: .utf8)
        let listed = try world.request("GET", "/api/skills")
        #expect(listed.status == 200, "\(listed.body)")
        let value = try JSONValue(parsing: Array(listed.body.utf8))
        let server = try #require(value["mcp_servers"]?.arrayValue?.first)
        #expect(server["name"]?.stringValue == "mute")
        #expect(server["state"]?.stringValue == "broken", "\(server)")
        let reason = server["error"]?.stringValue ?? ""
        #expect(reason.contains("mute") && !reason.contains("\n"), "one line naming the server: \(reason)")
        #expect(server["transport"]?["command"]?.stringValue == "/bin/false")
        let workflows = value["workflows"]?.arrayValue ?? []
        #expect(workflows.map { $0["id"]?.stringValue ?? "" } == ["workflow.bad", "workflow.lost"], "\(workflows)")
        #expect(workflows.first?["error"]?.stringValue?.contains("bad.yaml") == true, "\(workflows)")
        #expect(workflows.last?["error"]?.stringValue?.contains("nothing.here") == true, "\(workflows)")
        #expect(workflows.last?["steps"]?.arrayValue?.first?["skill"]?.stringValue == "nothing.here", "\(workflows)")
        let detail = try world.request("GET", "/api/skills/workflow.lost")
        #expect(detail.status == 200 && detail.body.contains(#""recent_calls":[]"#), "\(detail.body)")
        let tool = try world.request("GET", "/api/skills/mute.anything")
        #expect(tool.status == 502 && tool.body.contains("mute"), "\(tool.status) \(tool.body)")
        let unknown = try world.request("GET", "/api/skills/workflow.nope")
        #expect(unknown.status == 404, "\(unknown.body)")
        let off = try world.request("POST", "/api/skills/mute", body: #"{"enabled":false}"#)
        #expect(off.status == 200 && off.body.contains(#""id":"mute""#), "\(off.body)")
        #expect(try world.host.mcpServers().first?.enabled == false)
        let again = try JSONValue(parsing: Array(try world.request("GET", "/api/skills").body.utf8))
        #expect(again["mcp_servers"]?.arrayValue?.first?["state"]?.stringValue == "stopped", "\(again)")
        world.mcp?.shutdown()
        await world.server.stop()
    }
}
