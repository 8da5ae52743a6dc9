import SkillHostCore

/// A command line split into flags, options with values and positional arguments.
///
/// Each command declares the flags and options it knows; anything else is a usage error. `--name=value` and
/// `--name value` are both accepted; `--` ends option parsing; `-` is a positional argument (stdin).
struct ParsedArguments {
    /// Flags that are present (`--json`).
    var flags: Set<String> = []
    /// Option values (`--plugins DIR`); the last one wins.
    var options: [String: String] = [:]
    /// Everything else, in order.
    var positionals: [String] = []

    /// Global options every command accepts.
    static let globalOptions: Set<String> = ["--plugins", "--registry", "--cache", "--skills"]
    /// Global flags every command accepts: `--verbose` shows what plugins write to stderr (sanitized, one
    /// line each, after the plugin's id).
    static let globalFlags: Set<String> = ["--verbose"]

    init(_ arguments: [String], flags knownFlags: Set<String>, options knownOptions: Set<String>) throws(UsageError) {
        let knownOptions = knownOptions.union(Self.globalOptions)
        let knownFlags = knownFlags.union(["--help", "-h"]).union(Self.globalFlags)
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if knownFlags.contains(name), inlineValue == nil {
                flags.insert(name == "-h" ? "--help" : name)
            } else if knownOptions.contains(name) {
                if let inlineValue {
                    options[name] = inlineValue
                } else if index < arguments.count {
                    // `--plugins --verbose`: the value was left out, and the next option is not a value.
                    let next = arguments[index]
                    let nextName = next.hasPrefix("--") ? String(next.prefix { $0 != "=" }) : next
                    if knownOptions.contains(nextName) || knownFlags.contains(nextName) {
                        throw UsageError(
                            "option \(name) needs a value before \(nextName); give it one, or write \(name)=VALUE for a value that starts with --")
                    }
                    options[name] = next
                    index += 1
                } else {
                    throw UsageError("option \(name) needs a value")
                }
            } else if argument.count > 1, argument.dropFirst().allSatisfy(\.isNumber) {
                positionals.append(argument)  // a negative number is a value, not an option
            } else {
                let names = knownFlags.union(knownOptions).subtracting(["--help", "-h"]).sorted()
                let hint = NearestName.didYouMean(name, among: names)
                throw UsageError("unknown option \"\(name)\"" + (hint.isEmpty ? "" : "; " + hint.dropLast()))
            }
        }
    }

    /// Whether a flag is present.
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// Wrong command-line words: printed with the command's usage, exit code 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
