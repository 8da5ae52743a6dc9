import Foundation
import SkillCalls
import SkillHostCore
import SkillJSON
import SkillStore
import SkillWorkflows
import Synchronization
import Testing

/// The executor over test skills in memory (``MemoryBackend``): parallel branches overlap, `if` skips,
/// retries with back-off, timeouts, continue-on-error, a failure stops its dependants only, and a journal's
/// finished steps are not run again.
@Suite struct WorkflowRunnerTests {
    /// Skills: `test.sleep` (sleeps `ms`, returns when it started and ended), `test.echo` (returns its
    /// arguments as `value`), `test.flaky` (fails until its `n`th call), `test.fail` (always fails), and
    /// `test.write` (a non-idempotent skill that counts its calls by key).
    final class Skills: Sendable {
        let flakyCalls = Mutex(0)
        let writes = Mutex<[String: Int]>([:])
        let started = Mutex<[String: UInt64]>([:])

        var backend: MemoryBackend { backend(limits: [:]) }

        func backend(limits: [String: CallLimit]) -> MemoryBackend {
            MemoryBackend([
                MemoryBackend.Skill(tool: SkillTool(id: "test.sleep", description: "sleeps", parameters: [
                    "type": "object", "properties": ["ms": ["type": "integer"], "tag": ["type": "string"]],
                ], idempotent: true)) { arguments, _ in
                    let begin = Posix.monotonicNanoseconds()
                    try await Task.sleep(nanoseconds: UInt64(arguments["ms"]?.intValue ?? 0) * 1_000_000)
                    return ["begin": .int(Int64(begin / 1_000_000)), "end": .int(Int64(Posix.monotonicNanoseconds() / 1_000_000))]
                },
                MemoryBackend.Skill(tool: SkillTool(id: "test.echo", description: "echo", parameters: ["type": "object"], idempotent: true)) { arguments, _ in
                    ["value": arguments]
                },
                MemoryBackend.Skill(tool: SkillTool(id: "test.flaky", description: "flaky", parameters: [
                    "type": "object", "properties": ["n": ["type": "integer"]],
                ], idempotent: true)) { arguments, _ in
                    let count = self.flakyCalls.withLock { $0 += 1; return $0 }
                    if count < Int(arguments["n"]?.intValue ?? 1) { throw HostError(.skillFailed, "not yet (call \(count))") }
                    return ["calls": .int(Int64(count))]
                },
                MemoryBackend.Skill(tool: SkillTool(id: "test.fail", description: "fails", parameters: ["type": "object"], idempotent: true)) { _, _ in
                    throw HostError(.skillFailed, "it always fails")
                },
                MemoryBackend.Skill(tool: SkillTool(id: "test.note", description: "writes a note", parameters: ["type": "object"], permission: .write, idempotent: false)) { _, options in
                    self.writes.withLock { $0["note " + (options.idempotencyKey ?? ""), default: 0] += 1 }
                    return [:]
                },
                MemoryBackend.Skill(tool: SkillTool(id: "test.write", description: "writes", parameters: ["type": "object"], permission: .read, idempotent: false)) { _, options in
                    let key = options.idempotencyKey ?? "none"
                    self.writes.withLock { $0[key, default: 0] += 1 }
                    return ["key": .string(key)]
                },
            ], limits: limits)
        }
    }

    func runner(_ text: String, backend: MemoryBackend, journal: any WorkflowJournal = MemoryWorkflowJournal(), recorder: (any CallRecorder)? = nil, approval: any ApprovalHandler = DenyAllApproval())
        throws -> WorkflowRunner
    {
        let workflow = try WorkflowParser.parse(text, file: "t.yaml").get()
        let checker = WorkflowChecker(tools: try backend.tools())
        #expect(checker.problems(of: workflow, source: text) == [])
        let caller = ToolCaller(backend: backend, approval: approval, recorder: recorder)
        return WorkflowRunner(workflow: workflow, tools: checker.tools(of: workflow), caller: caller, journal: journal)
    }

    @Test func independentBranchesOverlapAndTheJoinWaits() async throws {
        let skills = Skills()
        let backend = skills.backend
        let text = """
            name: fan
            steps:
              - id: a
                skill: test.sleep
                arguments:
                  ms: 400
              - id: b
                skill: test.sleep
                arguments:
                  ms: 400
              - id: join
                skill: test.echo
                arguments:
                  a: ${{ steps.a.output.end }}
                  b: ${{ steps.b.output.end }}
            """
        let outcome = await try runner(text, backend: backend).run(runID: "r1", input: [:])
        #expect(outcome.state == .done)
        let a = try #require(outcome.outputs["a"]), b = try #require(outcome.outputs["b"])
        // Both ran at once: each began before the other ended.
        #expect(try #require(a["begin"]?.intValue) < (try #require(b["end"]?.intValue)))
        #expect(try #require(b["begin"]?.intValue) < (try #require(a["end"]?.intValue)))
        #expect(backend.peakConcurrency == 2)
        // The join got both outputs, typed (integers, not text).
        #expect(outcome.outputs["join"]?["value"]?["a"] == a["end"])
    }

    @Test func ifSkipsAndSkippedStepsSkipTheirDependants() async throws {
        let backend = Skills().backend
        let text = """
            name: cond
            inputs:
              type: object
              properties:
                go:
                  type: boolean
            steps:
              - id: first
                skill: test.echo
                if: inputs.go
              - id: second
                skill: test.echo
                arguments:
                  x: ${{ steps.first.output.value }}
              - id: other
                skill: test.echo
                if: "!inputs.go"
            """
        let outcome = await try runner(text, backend: backend).run(runID: "r", input: ["go": false])
        #expect(outcome.states == ["first": .skipped, "second": .skipped, "other": .done])
        #expect(outcome.state == .done)
    }

    @Test func retriesWithBackOffUntilItWorks() async throws {
        let skills = Skills()
        let events = Mutex<[String]>([])
        let text = """
            name: retry
            steps:
              - id: f
                skill: test.flaky
                arguments:
                  n: 3
                retry:
                  count: 3
                  backoff: 50ms
            """
        let outcome = await try runner(text, backend: skills.backend).run(runID: "r", input: [:]) { event in
            if case .stepRetrying(_, let attempt, let delay, _) = event { events.withLock { $0.append("\(attempt):\(delay)") } }
        }
        #expect(outcome.state == .done)
        #expect(outcome.outputs["f"]?["calls"] == 3)
        #expect(events.withLock { $0 } == ["1:0.05", "2:0.1"])
    }

    @Test func aTimeoutStopsTheStep() async throws {
        let text = """
            name: slow
            steps:
              - id: s
                skill: test.sleep
                timeout: 200ms
                arguments:
                  ms: 3000
            """
        let begin = Posix.monotonicNanoseconds()
        let outcome = await try runner(text, backend: Skills().backend).run(runID: "r", input: [:])
        #expect(outcome.states["s"] == .failed)
        #expect(Posix.monotonicNanoseconds() - begin < 2_500_000_000)
    }

    @Test func aFailureStopsOnlyItsDependantsAndContinueOnErrorGoesOn() async throws {
        let text = """
            name: fail
            steps:
              - id: bad
                skill: test.fail
              - id: after-bad
                skill: test.echo
                needs: bad
              - id: tolerated
                skill: test.fail
                continue-on-error: true
              - id: after-tolerated
                skill: test.echo
                arguments:
                  seen: ${{ steps.tolerated.output }}
              - id: independent
                skill: test.echo
            """
        let outcome = await try runner(text, backend: Skills().backend).run(runID: "r", input: [:])
        #expect(outcome.states == [
            "bad": .failed, "after-bad": .skipped, "tolerated": .failed, "after-tolerated": .done, "independent": .done,
        ])
        #expect(outcome.outputs["after-tolerated"]?["value"]?["seen"] == .null)
        #expect(outcome.state == .failed)
    }

    @Test func theIdempotencyKeyIsRunAndStep() async throws {
        let skills = Skills()
        let text = """
            name: w
            steps:
              - id: write
                skill: test.write
            """
        let journal = MemoryWorkflowJournal()
        let outcome = await try runner(text, backend: skills.backend, journal: journal, recorder: StepCallRecorder(runID: "run-9", inner: nil))
            .run(runID: "run-9", input: [:])
        #expect(outcome.outputs["write"]?["key"] == "run-9/write")
        #expect(try journal.steps(run: "run-9").map(\.status) == ["done"])
    }

    @Test func aResumeRunsOnlyWhatHadNotFinished() async throws {
        let skills = Skills()
        let backend = skills.backend
        let text = """
            name: w
            steps:
              - id: one
                skill: test.write
              - id: two
                skill: test.write
                needs: one
              - id: three
                skill: test.write
                needs: two
            """
        let journal = MemoryWorkflowJournal()
        try journal.saveRun(WorkflowRunRecord(id: "r", workflow: "w", file: "", definition: text, input: "{}", status: "running", startedMilliseconds: 0))
        // As a killed run leaves it: one done, two started (its call may have taken effect), three not begun.
        try journal.saveStep(WorkflowStepRecord(stepID: "one", status: "done", attempts: 1, output: "{\"key\":\"r/one\"}"), run: "r")
        try journal.saveStep(WorkflowStepRecord(stepID: "two", status: "running", attempts: 1), run: "r")
        // Without approval the interrupted non-idempotent step is not run again, and its dependant waits.
        let refused = await try runner(text, backend: backend, journal: journal, recorder: StepCallRecorder(runID: "r", inner: nil, interrupted: ["two"]))
            .run(runID: "r", input: [:], resumed: true)
        #expect(refused.states == ["one": .done, "two": .failed, "three": .skipped])
        #expect(skills.writes.withLock { $0 }.isEmpty)
        // Approved, it runs once more with the same key; three runs; one is not run again.
        try journal.saveStep(WorkflowStepRecord(stepID: "two", status: "running", attempts: 1), run: "r")
        let approved = await try runner(text, backend: backend, journal: journal, recorder: StepCallRecorder(runID: "r", inner: nil, interrupted: ["two"]), approval: AllowAllApproval())
            .run(runID: "r", input: [:], resumed: true)
        #expect(approved.state == .done)
        #expect(skills.writes.withLock { $0 } == ["r/two": 1, "r/three": 1])
        #expect(approved.outputs["one"]?["key"] == "r/one")
    }

    /// The write steps of a run are approved once, up front, in one question that lists them.
    @Test func writeStepsAreApprovedOnceUpFront() async throws {
        let text = """
            name: notes
            steps:
              - id: one
                skill: test.note
              - id: two
                skill: test.note
              - id: read
                skill: test.echo
            """
        for answer in [true, false] {
            let skills = Skills()
            let backend = skills.backend
            let workflow = try WorkflowParser.parse(text, file: "t.yaml").get()
            let tools = WorkflowChecker(tools: try backend.tools()).tools(of: workflow)
            let asked = Mutex<[String]>([])
            let person = ClosureApproval { request in
                asked.withLock { $0.append(request.skill.title) }
                return answer
            }
            let approval = await RunApproval.ask(person, workflow: workflow, tools: tools, input: [:], path: "t.yaml")
            let caller = ToolCaller(backend: backend, approval: approval, recorder: StepCallRecorder(runID: "r", inner: nil))
            let outcome = await WorkflowRunner(workflow: workflow, tools: tools, caller: caller, journal: MemoryWorkflowJournal())
                .run(runID: "r", input: [:])
            #expect(asked.withLock { $0 } == ["workflow notes; its steps that change things: one (test.note, write), two (test.note, write)"])
            if answer {
                #expect(outcome.state == .done)
                #expect(skills.writes.withLock { $0 } == ["note r/one": 1, "note r/two": 1])
            } else {
                #expect(outcome.states == ["one": .failed, "two": .failed, "read": .done])
                #expect(skills.writes.withLock { $0 }.isEmpty)
            }
        }
    }

    /// Six independent sleeping steps: they run at once up to the skill's worker limit (its `max_workers`),
    /// never more; `maxParallel` caps them below that; a skill the backend gives no limit for runs up to the
    /// default (the registry's default max_workers), per source.
    @Test func parallelStepsFollowTheWorkerLimits() async throws {
        let text = "name: many\nsteps:\n" + (1...6).map { "  - id: s\($0)\n    skill: test.sleep\n    arguments:\n      ms: 150\n" }.joined()
        for (limit, cap, expected) in [(3, nil, 3), (6, 2, 2), (nil, nil, WorkflowRunner.defaultLimit), (1, 4, 1)] as [(Int?, Int?, Int)] {
            let skills = Skills()
            let backend = skills.backend(limits: limit.map { ["test.sleep": CallLimit(group: "plugin:test", limit: $0)] } ?? [:])
            var runner = try runner(text, backend: backend)
            runner.maxParallel = cap
            let outcome = await runner.run(runID: "r", input: [:])
            #expect(outcome.state == .done)
            #expect(backend.peakConcurrency == expected, "limit \(String(describing: limit)), --parallel \(String(describing: cap))")
            // They did overlap: with the limit above one, some step began before another ended.
            if expected > 1 {
                var spans: [(begin: Int64, end: Int64)] = []
                for (_, value) in outcome.outputs {
                    if let begin = value["begin"]?.intValue, let end = value["end"]?.intValue { spans.append((begin, end)) }
                }
                var overlapped = false
                for (i, a) in spans.enumerated() {
                    for b in spans[(i + 1)...] where b.begin < a.end && a.begin < b.end { overlapped = true }
                }
                #expect(spans.count == 6 && overlapped)
            }
        }
    }

    /// A resumed run asks up front only about the write steps it has still to run.
    @Test func aResumedRunAsksOnlyAboutWhatIsLeft() async throws {
        let text = """
            name: notes
            steps:
              - id: one
                skill: test.note
              - id: two
                skill: test.note
                needs: one
            """
        let skills = Skills()
        let backend = skills.backend
        let workflow = try WorkflowParser.parse(text, file: "t.yaml").get()
        let tools = WorkflowChecker(tools: try backend.tools()).tools(of: workflow)
        let asked = Mutex<[String]>([])
        let person = ClosureApproval { request in
            asked.withLock { $0.append(request.skill.title) }
            return true
        }
        let journal = MemoryWorkflowJournal()
        try journal.saveStep(WorkflowStepRecord(stepID: "one", status: "done", attempts: 1, output: "{}"), run: "r")
        let approval = await RunApproval.ask(person, workflow: workflow, tools: tools, input: [:], path: "t.yaml", finished: ["one"])
        let caller = ToolCaller(backend: backend, approval: approval, recorder: StepCallRecorder(runID: "r", inner: nil))
        let outcome = await WorkflowRunner(workflow: workflow, tools: tools, caller: caller, journal: journal).run(runID: "r", input: [:], resumed: true)
        #expect(outcome.state == .done)
        #expect(asked.withLock { $0 } == ["workflow notes; its steps that change things: two (test.note, write)"])
        #expect(skills.writes.withLock { $0 } == ["note r/two": 1])
        // Nothing left that changes things: nobody is asked.
        asked.withLock { $0 = [] }
        let none = await RunApproval.ask(person, workflow: workflow, tools: tools, input: [:], path: "t.yaml", finished: ["one", "two"])
        #expect(none.approved && asked.withLock { $0 }.isEmpty)
    }

    /// `deliver` writes the filled-in text to the filled-in path under the folder once the run succeeded; a
    /// path that its references turn into one leaving the folder fails the run, and nothing is written.
    @Test func deliveryWritesUnderTheFolderOnly() async throws {
        let folder = HostTestSupport.temporaryDirectory("deliveries")
        let text = """
            name: d
            inputs:
              type: object
              properties:
                day:
                  type: string
            steps:
              - id: e
                skill: test.echo
                arguments:
                  word: hello
            deliver:
              to: notes/${{ inputs.day }}.txt
              text: "said ${{ steps.e.output.value.word }}"
            """
        var runner = try runner(text, backend: Skills().backend)
        runner.deliveries = folder + "/out"
        let events = Mutex<[JSONValue]>([])
        let outcome = await runner.run(runID: "r", input: ["day": "monday"]) { event in events.withLock { $0.append(event.json) } }
        #expect(outcome.state == .done)
        #expect(outcome.delivered == folder + "/out/notes/monday.txt")
        #expect((try? String(contentsOfFile: folder + "/out/notes/monday.txt", encoding: .utf8)) == "said hello\n")
        #expect(events.withLock { $0 }.contains { $0["event"] == "delivered" && $0["bytes"] == 11 })
        for (day, message) in [
            ("../../escape", "deliver: deliver.to 'notes/../../escape.txt' leaves the deliveries folder ('..'); give a relative path under the deliveries folder such as 'briefings/today.md'"),
            ("a/.hidden", "deliver: deliver.to 'notes/a/.hidden.txt' names a hidden file or folder; give a relative path under the deliveries folder such as 'briefings/today.md'"),
        ] {
            events.withLock { $0 = [] }
            let bad = await runner.run(runID: "r2", input: ["day": .string(day)]) { event in events.withLock { $0.append(event.json) } }
            #expect(bad.state == .failed)
            #expect(bad.delivered == nil)
            #expect(events.withLock { $0 }.contains { $0["event"] == "delivered" && $0["error"] == .string(message) }, "\(events.withLock { $0 })")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/escape.txt"))
        // A link on the way out of the folder is refused.
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        #expect(symlink("/tmp", folder + "/out/link") == 0)
        #expect(throws: WorkflowSyntaxError.self) { try WorkflowDelivery.write("x", to: "link/x.txt", under: folder + "/out") }
    }

    /// The fuzz target's seeds (Tests/Fuzz/corpus/workflow) read or are refused without a crash, and the
    /// bundled example reads.
    @Test func theFuzzSeedsRead() {
        let inputs = FuzzCorpus.inputs("workflow")
        #expect(inputs.count >= 4)
        for input in inputs {
            let text = String(decoding: input.bytes, as: UTF8.self)
            if case .success(let workflow) = WorkflowParser.parse(text, file: input.name) {
                _ = WorkflowChecker(tools: []).report(of: workflow, source: text)
            }
        }
        #expect((try? WorkflowParser.parse(String(decoding: inputs.first { $0.name.hasSuffix("morning-briefing.yaml") }?.bytes ?? [], as: UTF8.self), file: "m").get())?.delivery != nil)
    }

    /// A script step whose script exits non-zero fails (and is retried like any failure); exit 0 is done.
    @Test func aScriptThatExitsNonZeroFailsItsStep() async throws {
        let runs = Mutex(0)
        let script = MemoryBackend([MemoryBackend.Skill(tool: SkillTool(id: ScriptToolBackend.toolID, description: "scripts", parameters: ["type": "object"], idempotent: true)) { arguments, _ in
            let count = runs.withLock { $0 += 1; return $0 }
            // YAML scalars are text for a parameter the schema does not type.
            let passOn = arguments["pass_on"]?.stringValue.flatMap { Int($0) } ?? 99
            let status = count < passOn ? 3 : 0
            return ["exit_status": .int(Int64(status)), "stdout": "", "stderr": "line one\nboom", "path": "scripts/x.py"]
        }])
        let text = """
            name: s
            steps:
              - id: run
                skill: run_skill_script
                arguments:
                  pass_on: 9
                retry:
                  count: 1
                  backoff: 10ms
            """
        let failed = await try runner(text, backend: script).run(runID: "r", input: [:])
        #expect(failed.state == .failed)
        #expect(runs.withLock { $0 } == 2, "tried again once")
        runs.withLock { $0 = 0 }
        let retried = await try runner(text.replacingOccurrences(of: "pass_on: 9", with: "pass_on: 2"), backend: script).run(runID: "r2", input: [:])
        #expect(retried.state == .done)
        #expect(runs.withLock { $0 } == 2, "failed once, then passed")
        let events = Mutex<[JSONValue]>([])
        _ = await try runner(text, backend: script).run(runID: "r3", input: [:]) { event in events.withLock { $0.append(event.json) } }
        #expect(events.withLock { $0 }.contains { $0["error"] == "scriptFailed: scripts/x.py exited with status 3: boom" }, "\(events.withLock { $0 })")
    }
}
