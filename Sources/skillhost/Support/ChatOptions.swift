import Foundation
import SkillAgent
import SkillHostCore

/// The model and agent options `chat` and `ui` share: the provider (`--provider`, `--base-url`, `--model`,
/// `--offline`, their environment variables and the registry's `chat.provider`), `--max-steps` and
/// `--context-tokens`, read and checked once.
struct ChatOptions {
    /// The options these add.
    static let options: Set<String> = ["--max-steps", "--base-url", "--model", "--context-tokens", "--provider"]
    static let flags: Set<String> = ["--offline"]

    /// The model server.
    var selection: ProviderSelection
    /// Turn limits and budgets (approval and session are set by the front end).
    var configuration: AgentConfiguration

    /// Reads the options of `parsed`.
    /// - Throws: ``UsageError`` with the one-line reason.
    init(_ parsed: ParsedArguments, environment: [String: String]) throws {
        do {
            let registrySetting = (try? RegistryStore(path: HostOptions.paths(parsed).registry).read())?.json["chat"]?["provider"]?.stringValue
            selection = try ProviderSelection.resolve(
                environment: environment, providerFlag: parsed.options["--provider"], registrySetting: registrySetting,
                baseURLFlag: parsed.options["--base-url"], modelFlag: parsed.options["--model"], offline: parsed.has("--offline"))
        } catch {
            throw UsageError(error.message)
        }
        var maxSteps = 8
        if let text = parsed.options["--max-steps"] {
            guard let value = Int(text), (0...100).contains(value) else {
                throw UsageError("--max-steps needs a whole number from 0 to 100, not '\(text)'")
            }
            maxSteps = value
        }
        configuration = AgentConfiguration(maxSteps: maxSteps)
        if let text = parsed.options["--context-tokens"] {
            guard let value = Int(text), (512...10_000_000).contains(value) else {
                throw UsageError("--context-tokens needs a whole number from 512 to 10000000 (the model's context size), not '\(text)'")
            }
            configuration.toolBudget = ToolBudget(contextTokens: value)
            configuration.historyTokenBudget = max(200, min(configuration.historyTokenBudget, value / 2))
        }
    }
}
