import Foundation
import SkillAgent
import SkillHostCore

/// The model and agent options `chat` and `ui` share: the provider (`--provider`, `--base-url`, `--model`,
/// `--offline`, their environment variables, then the registry's `chat` object), `--max-steps` and
/// `--context-tokens` (then `chat.max_steps`, `chat.context_tokens`), read and checked once by SkillAgent's
/// ``ChatSettings`` rules.
struct ChatOptions {
    /// The options these add.
    static let options: Set<String> = ["--max-steps", "--base-url", "--model", "--context-tokens", "--provider"]
    static let flags: Set<String> = ["--offline"]

    /// The model server.
    var selection: ProviderSelection
    /// Turn limits and budgets (approval and session are set by the front end).
    var configuration: AgentConfiguration

    /// Reads the options of `parsed`, then the registry's `chat` object.
    /// - Throws: ``UsageError`` for a bad flag or environment value, ``HostError`` (`registry`) for a bad
    ///   `chat` member, each in one line.
    init(_ parsed: ParsedArguments, environment: [String: String]) throws {
        let registry = try? RegistryStore(path: HostOptions.paths(parsed).registry).read()
        // A member a flag overrides is not read: a bad saved provider does not stop `--provider offline`.
        var chat = registry?.chat ?? [:]
        let overridden: [(flag: String, member: String)] = [
            ("--provider", "provider"), ("--offline", "provider"), ("--base-url", "base_url"), ("--model", "model"),
            ("--max-steps", "max_steps"), ("--context-tokens", "context_tokens"),
        ]
        for (flag, member) in overridden where parsed.has(flag) || parsed.options[flag] != nil { chat[member] = nil }
        let saved: ChatSettings
        do {
            saved = try ChatSettings(registry: chat, file: registry?.file ?? "registry")
        } catch {
            throw HostError(.registry, error.message)
        }
        do {
            selection = try ProviderSelection.resolve(
                environment: environment, providerFlag: parsed.options["--provider"], registrySetting: saved.provider,
                baseURLFlag: parsed.options["--base-url"], modelFlag: parsed.options["--model"], offline: parsed.has("--offline"),
                registryBaseURL: saved.baseURL, registryModel: saved.model)
            var settings = saved
            if let text = parsed.options["--max-steps"] { settings.maxSteps = try ChatSettings.maxSteps(text, from: "--max-steps") }
            if let text = parsed.options["--context-tokens"] {
                settings.contextTokens = try ChatSettings.contextTokens(text, from: "--context-tokens")
            }
            configuration = AgentConfiguration()
            settings.apply(to: &configuration)
        } catch {
            throw UsageError(error.message)
        }
    }
}
