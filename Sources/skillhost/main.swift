// skillhost: the command-line front of SkillHost. Parses the first word, hands the rest to a command.
import SkillHostCore
#if canImport(Glibc)
import Glibc
#endif

/// The command line with global options that stand before the command word moved behind it, so
/// `skillhost --plugins DIR list` and `skillhost list --plugins DIR` mean the same.
let commandLine: [String] = {
    var rest = Array(CommandLine.arguments.dropFirst())
    var leading: [String] = []
    while let first = rest.first {
        if ParsedArguments.globalFlags.contains(first) {
            leading.append(rest.removeFirst())
            continue
        }
        guard ParsedArguments.globalOptions.contains(where: { first == $0 || first.hasPrefix($0 + "=") }) else { break }
        leading.append(rest.removeFirst())
        if !first.contains("="), !rest.isEmpty { leading.append(rest.removeFirst()) }
    }
    guard !rest.isEmpty else { return leading }
    return [rest[0]] + leading + rest.dropFirst()
}()
signal(SIGPIPE, SIG_IGN)
// Plugin log lines no call's sink takes (a worker's, a scanner child's) go to stderr, which the host reads.
PluginLog.destination = HostOptions.standardErrorSink
// `call` forks its spare worker now, while the process has one thread (docs/isolation.md, "Spare worker");
// the child goes on as `__worker --await-load`. A spare (forked or spawned) reads its words first.
var givenArguments = commandLine
if commandLine.first == "call", !commandLine.contains("--help"), !commandLine.contains("-h"),
    let executable = Posix.executablePath()
{
    switch SpareWorker.forkEarly(executable: executable) {
    case .parent(let spare): CallCommand.earlySpare.withLock { $0 = spare }
    case .child: givenArguments = ["__worker", WorkerLoadOrder.awaitFlag]
    case .unavailable: break
    }
}
let arguments = WorkerLoadOrder.resolve(commandLine: givenArguments)
// A worker and the scanner enter their sandbox before anything starts a thread (Landlock binds the calling
// thread; a user namespace needs a process with one thread), and before any plugin code is loaded.
if arguments.first == "__worker" { WorkerSandbox.enterEarly(workerArguments: Array(arguments.dropFirst())) }
if arguments.first == "__scan" { ScannerSandbox.enterEarly(words: Array(arguments.dropFirst())) }

func printTopLevelHelp() {
    var text = """
        usage: skillhost <command> [options]

        A plugin host for AI-agent skills: discovers skill plugins (.so), keeps the registry of which are on,
        calls them, and runs an agent that uses them.

        Commands:

        """
    let shown = CommandTable.all.filter { !$0.isHidden }
    let width = shown.reduce(0) { max($0, $1.name.count) } + 2
    for command in shown {
        text += "  " + command.name.padding(toLength: width) + command.summary + "\n"
    }
    text += """

        Global options (any command):
          --plugins DIR     plugins folder (env SKILLHOST_PLUGINS; default ~/.local/share/skillhost/plugins)
          --registry FILE   registry file (env SKILLHOST_REGISTRY; default ~/.config/skillhost/skill_registry.json)
          --cache DIR       scan cache folder (env SKILLHOST_CACHE; default ~/.cache/skillhost)
          --skills DIR      instruction skills folder (env SKILLHOST_SKILLS; default ~/.local/share/skillhost/skills)
          --verbose         show what plugins write to stderr, one sanitized line each after the plugin's id

        History (chat, history, trace, debug, inspect): --state DIR (env SKILLHOST_STATE; default
        ~/.local/state/skillhost). Model: chat --provider openai|anthropic|offline, --base-url URL.

        Run 'skillhost <command> --help' for a command's options. Exit codes: docs/cli.md.
        """
    print(text)
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}

let status: Int32
if arguments.isEmpty || arguments[0] == "--help" || arguments[0] == "-h" || arguments[0] == "help" {
    printTopLevelHelp()
    status = arguments.isEmpty ? ExitCode.usage : ExitCode.success
} else if arguments[0] == "--version" {
    print("skillhost 0.1.0 (plugin ABI 1.0)")
    status = ExitCode.success
} else if let command = CommandTable.command(named: arguments[0]) {
    let rest = Array(arguments.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
        print(command.help)
        status = ExitCode.success
    } else {
        status = await ErrorReporter.run(command, rest)
    }
} else {
    let visible = CommandTable.all.map { $0.name }.filter { !$0.hasPrefix("_") }
    // A slip ("lsit"), or a command with a word added ("remove-mcp" after "add-mcp": it is "remove").
    var hint = NearestName.didYouMean(arguments[0], among: visible)
    if hint.isEmpty, let part = arguments[0].split(separator: "-").map(String.init).first(where: visible.contains) {
        hint = NearestName.didYouMean(named: part)
    }
    ErrorReporter.printError("unknown command \"\(arguments[0])\"; \(hint)run 'skillhost --help' for the list")
    status = ExitCode.usage
}
exit(status)
