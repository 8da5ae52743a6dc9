import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// LiteLLM's proxy (`litellm[proxy]` from PyPI), a real implementation of the Anthropic Messages API, in
/// front of a ``ReplayServer`` that plays an OpenAI-compatible backend (`hosted_vllm/…`: LiteLLM calls its
/// `/v1/chat/completions`; an `openai/…` model would call `/v1/responses`). A peer we did not write: how it
/// reads our Messages requests and what it streams back is the test of the Anthropic provider.
///
/// Installed into `.build/peers/litellm` by the first test that needs it (about 76 s and 760 MB on the
/// 2-core machine, from an empty pip cache), and started once per test process (LiteLLM takes 10–60 s to
/// start) by `Tests/Peers/litellm_proxy.py`, which stops it when this process exits: its standard input is
/// a pipe only this process holds.
final class LiteLLMPeer: Sendable {
    /// The version the expectations were checked against (the newest whose `[proxy]` extra resolves on
    /// PyPI's mirror here: later ones want `litellm-proxy` or `litellm-enterprise` builds it lacks).
    static let version = "1.108.7"

    /// LiteLLM in `.build/peers/litellm`.
    static let environment = PythonVirtualEnvironment(
        name: "litellm", packages: ["litellm[proxy]==\(version)"],
        probe: """
            import importlib.metadata as m, sys
            sys.exit(m.version("litellm") != "\(version)" or not all(m.version(p) for p in ("fastapi", "uvicorn", "backoff", "litellm-proxy-extras")))
            """)

    /// The proxy's key (LiteLLM refuses to start without one); clients send it as `x-api-key`.
    static let masterKey = "sk-skillhost-litellm-peer-5f0c2a"
    /// The model name clients ask for; LiteLLM maps it to the backend's `scripted`.
    static let model = "scripted"

    /// One proxy for the whole test process, started on first use.
    static let shared: Result<LiteLLMPeer, Failure> = {
        do {
            return .success(try LiteLLMPeer())
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(Failure(description: "\(error)"))
        }
    }()

    /// The OpenAI-compatible backend LiteLLM forwards to (``ReplayServer/play(_:)`` sets its answers).
    let backend: ReplayServer
    /// The port LiteLLM listens on, on 127.0.0.1.
    let port: Int
    private let process: Process
    /// The launcher's standard input: while this process holds it open, the proxy runs.
    private let lifeline: Pipe
    private let folder: String

    private init() throws {
        let python = try Self.environment.python()
        backend = try ReplayServer([], lifetime: 4 * 3600)
        folder = TestPackage.temporaryDirectory("skillhost-litellm")
        let config = folder + "/config.yaml"
        try TestPackage.write(
            """
            model_list:
              - model_name: \(Self.model)
                litellm_params:
                  model: hosted_vllm/scripted
                  api_base: http://127.0.0.1:\(backend.port)/v1
                  api_key: none
            litellm_settings:
              num_retries: 0
              request_timeout: 60
            router_settings:
              num_retries: 0
            general_settings:
              master_key: \(Self.masterKey)

            """, to: config)
        let ready = folder + "/port"
        let log = folder + "/litellm.log"
        lifeline = Pipe()
        // Only this process may hold the write end: no program it starts later may keep the proxy alive.
        _ = fcntl(lifeline.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            TestPackage.root + "/Tests/Peers/litellm_proxy.py", "--config", config, "--ready", ready, "--log", log, "--remove-on-exit", folder,
        ]
        process.standardInput = lifeline
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Bounded: 300 s for a loaded machine compiling LiteLLM's modules on first start.
        guard let found = PortFile.wait(for: ready, from: process, seconds: 300) else {
            let tail = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(15).joined(separator: "\n")
            try? lifeline.fileHandleForWriting.close()
            process.waitUntilExit()
            backend.stop()
            throw Failure(description: "LiteLLM's proxy did not start within 300 s; the end of its log (\(log)):\n\(tail)")
        }
        port = found
    }

    /// The proxy's root, the Anthropic base URL (`/v1/messages` is under it).
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Why the peer could not be set up.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}
