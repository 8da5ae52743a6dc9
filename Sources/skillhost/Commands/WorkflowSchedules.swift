import Foundation
import SkillHostCore
import SkillJSON
import SkillStore
import SkillWorkflows

/// `skillhost workflow schedule|due`: schedules of installed workflows, the runs they are due, and the
/// systemd user timer that asks every minute (docs/workflows.md, "Schedules").
enum WorkflowSchedules {
    static func schedule(name: String, cron: String, input: String, _ parsed: ParsedArguments) throws -> Int32 {
        do throws(WorkflowSyntaxError) { _ = try CronExpression(cron) } catch {
            ErrorReporter.printError("schedule of \(name): \(error.reason)")
            return ExitCode.invalidArguments
        }
        guard WorkflowCommand.installed(parsed).files()[name] != nil else {
            ErrorReporter.printError("no installed workflow '\(name)'; install it first with 'skillhost workflow install FILE'")
            return ExitCode.notFound
        }
        guard let value = try? JSONValue(parsing: input), case .object = value else {
            throw UsageError("INPUT_JSON must be a JSON object, e.g. '{\"zone\":\"Europe/Paris\"}'")
        }
        let store = try HistoryOptions.open(parsed, registry: nil)
        try store.saveWorkflowSchedule(WorkflowScheduleRecord(
            name: name, cron: cron, input: value.serialized(), createdMilliseconds: Posix.unixMilliseconds()))
        print("scheduled \(name) at '\(cron)'; 'skillhost workflow due' runs it when due (--install-timer: every minute by systemd)")
        return ExitCode.success
    }

    /// Runs every schedule's latest due minute that no earlier call started.
    static func runDue(_ parsed: ParsedArguments) async throws -> Int32 {
        let store = try HistoryOptions.open(parsed, registry: nil)
        let now: Int64
        if let text = parsed.options["--now"] {
            guard let seconds = Int64(text) else { throw UsageError("--now takes Unix seconds, not '\(text)'") }
            now = seconds
        } else {
            now = Posix.unixMilliseconds() / 1000
        }
        var status = ExitCode.success
        for schedule in try store.workflowSchedules() {
            guard let cron = try? CronExpression(schedule.cron) else {
                ErrorReporter.printError("schedule of \(schedule.name): '\(schedule.cron)' is not a valid cron schedule; schedule it again")
                status = ExitCode.invalidArguments
                continue
            }
            guard let instant = cron.latestDue(atOrBefore: now, after: schedule.createdMilliseconds / 1000) else { continue }
            let runID = WorkflowRunID.make()
            guard try store.claimScheduledInstant(name: schedule.name, instant: instant * 1000, runID: runID) else { continue }
            if !parsed.has("--json") { print("\(schedule.name): due at \(instant) (Unix seconds), run \(runID)") }
            let code = await WorkflowCommand.runInstalled(name: schedule.name, input: schedule.input, runID: runID, store: store, parsed)
            if code != ExitCode.success { status = code }
        }
        return status
    }

    /// Writes `skillhost-workflows.service` and `.timer` into the systemd user folder.
    static func installTimer(_ parsed: ParsedArguments) throws -> Int32 {
        let environment = Posix.environment()
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (environment["HOME"] ?? "") + "/.config"
        let folder = config + "/systemd/user"
        let binary = Posix.executablePath() ?? CommandLine.arguments[0]
        var command = [binary, "workflow", "due"]
        if parsed.has("--yes") { command.append("--yes") }
        for (flag, value) in parsed.options.sorted(by: { $0.key < $1.key }) where ParsedArguments.globalOptions.contains(flag) || flag == "--state" {
            command += [flag, value]
        }
        var environmentLines = ""
        for name in ["SKILLHOST_PLUGINS", "SKILLHOST_REGISTRY", "SKILLHOST_CACHE", "SKILLHOST_SKILLS", "SKILLHOST_STATE", "SKILLHOST_WORKFLOWS"] {
            if let value = environment[name], !value.isEmpty { environmentLines += "Environment=\(name)=\(quoted(value))\n" }
        }
        let service = """
            [Unit]
            Description=SkillHost: run the workflows whose schedule is due

            [Service]
            Type=oneshot
            \(environmentLines)ExecStart=\(command.map(quoted).joined(separator: " "))

            """
        let timer = """
            [Unit]
            Description=SkillHost: look for due workflows every minute

            [Timer]
            OnCalendar=*-*-* *:*:00
            AccuracySec=1s
            Persistent=true

            [Install]
            WantedBy=timers.target

            """
        try Posix.createDirectories(folder)
        try Posix.replaceFile(folder + "/skillhost-workflows.service", with: Array(service.utf8))
        try Posix.replaceFile(folder + "/skillhost-workflows.timer", with: Array(timer.utf8))
        print("wrote \(folder)/skillhost-workflows.service and .timer; start it with: systemctl --user daemon-reload && systemctl --user enable --now skillhost-workflows.timer")
        return ExitCode.success
    }

    /// A word for a systemd command line or assignment: quoted when it has spaces, quotes or backslashes.
    static func quoted(_ word: String) -> String {
        guard word.contains(where: { $0 == " " || $0 == "\"" || $0 == "\\" || $0 == "'" || $0 == "%" }) else { return word }
        return "\"" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "%", with: "%%") + "\""
    }
}
