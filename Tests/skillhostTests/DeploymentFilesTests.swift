import Foundation
import Testing

/// The production shape docs/deploy.md describes: the Kubernetes manifests pass `yamllint` (Debian's) and hold
/// what the page says (three replicas, the registry and the request-state key mounted read-only, probes on the
/// metadata path); the Containerfile runs `skillhost mcp --http` as an unprivileged user with the variables
/// the binary reads.
@Suite struct DeploymentFilesTests {
    static let root = TestPackage.root

    @Test func theKubernetesManifestsPassYamllint() throws {
        let yamllint = ["/usr/bin/yamllint", "/usr/local/bin/yamllint"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let tool = try #require(yamllint, "install yamllint (scripts/ensure-deps.sh)")
        let result = try TestProcess.run(
            tool, ["--strict", "-d", "{extends: default, rules: {line-length: {max: 120}}}", Self.root + "/deploy/kubernetes.yaml"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func theManifestsHoldWhatTheDocsSay() throws {
        let text = try String(contentsOfFile: Self.root + "/deploy/kubernetes.yaml", encoding: .utf8)
        for piece in [
            "kind: Deployment", "kind: Service", "kind: ConfigMap", "kind: Secret", "replicas: 3", "- --http", "- 0.0.0.0:8080",
            "path: /.well-known/oauth-protected-resource/mcp", "readOnly: true", "mcp-request-state.key", "runAsNonRoot: true",
        ] {
            #expect(text.contains(piece), "deploy/kubernetes.yaml lacks \(piece)")
        }
    }

    @Test func theContainerfileRunsTheHTTPServerAsAnUnprivilegedUser() throws {
        let text = try String(contentsOfFile: Self.root + "/Containerfile", encoding: .utf8)
        #expect(text.contains(#"CMD ["mcp", "--http", "0.0.0.0:8080"]"#))
        #expect(text.contains("USER skillhost"))
        let globalHelp = try TestProcess.run(try TestPackage.skillhostBinary(), ["--help"]).stdout
        for variable in ["SKILLHOST_PLUGINS", "SKILLHOST_REGISTRY", "SKILLHOST_STATE", "SKILLHOST_CACHE", "SKILLHOST_SKILLS"] {
            #expect(text.contains(variable + "="), "the Containerfile sets \(variable)")
            #expect(globalHelp.contains(variable), "the binary reads \(variable) (skillhost --help)")
        }
        let help = try TestProcess.run(try TestPackage.skillhostBinary(), ["mcp", "--help"])
        #expect(help.stdout.contains("--http [HOST:]PORT") && help.stdout.contains("--tls-cert"), "\(help.stdout)")
    }
}
