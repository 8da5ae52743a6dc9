import SkillCalls
import SkillJSON
import SkillWorkflows
import Testing

/// The checker's corpus of broken workflows: each fault once, on one line, with file:line:column and the fix.
@Suite struct WorkflowCheckTests {
    static let tools: [SkillTool] = {
        var now = SkillTool(id: "clock.now", description: "time", parameters: [
            "type": "object", "properties": ["timezone": ["type": "string"]], "additionalProperties": false,
        ], idempotent: true)
        now.outputSchema = ["type": "object", "properties": ["date": ["type": "string"], "hour": ["type": "integer"]]]
        var list = SkillTool(id: "calendar.list_events", description: "events", parameters: [
            "type": "object",
            "properties": ["from": ["type": "string"], "limit": ["type": ["integer", "null"], "minimum": 1]],
            "additionalProperties": false,
        ], idempotent: true)
        list.outputSchema = ["type": "object", "properties": ["events": ["type": "array"], "count": ["type": "integer"]]]
        let summarize = SkillTool(id: "text.summarize", description: "summary", parameters: [
            "type": "object", "properties": ["text": ["type": "string"], "sentences": ["type": "integer"]], "required": ["text"],
            "additionalProperties": false,
        ])
        return [now, list, summarize]
    }()

    func problems(_ text: String) -> [String] {
        switch WorkflowParser.parse(text, file: "w.yaml") {
        case .failure(let faults): return faults.problems.map(\.description)
        case .success(let workflow): return WorkflowChecker(tools: Self.tools).problems(of: workflow, source: text).map(\.description)
        }
    }

    static let good = """
        name: morning
        description: the morning
        inputs:
          type: object
          properties:
            zone:
              type: string
              default: UTC
        steps:
          - id: now
            skill: clock.now
            arguments:
              timezone: ${{ inputs.zone }}
          - id: events
            skill: calendar.list_events
            arguments:
              from: ${{ steps.now.output.date }}
              limit: 5
          - id: summary
            skill: text.summarize
            if: steps.events.output.count > 0
            retry:
              count: 2
              backoff: 500ms
            timeout: 10
            arguments:
              text: "Today ${{ steps.now.output.date }}: ${{ steps.events.output.events }}"
              sentences: 2
        """

    @Test func aGoodWorkflowHasNoProblems() throws {
        #expect(problems(Self.good) == [])
        let workflow = try WorkflowParser.parse(Self.good, file: "w.yaml").get()
        #expect(workflow.steps.map(\.id) == ["now", "events", "summary"])
        #expect(workflow.step("summary")?.dependencies == ["now", "events"])
        #expect(workflow.step("summary")?.retry == RetryPolicy(count: 2, backoff: 0.5))
        #expect(workflow.step("summary")?.timeout == 10)
        #expect(workflow.inputs["properties"]?["zone"]?["default"] == "UTC")
    }

    @Test func anUnknownSkillNamesTheLineAndTheFix() {
        let text = Self.good.replacingOccurrences(of: "skill: calendar.list_events", with: "skill: calendar.list_event")
        #expect(problems(text) == ["w.yaml:15:5: step events: no enabled skill 'calendar.list_event'; see 'skillhost list' for the skill ids"])
    }

    @Test func aReferenceToNoStepOrNoInput() {
        var text = Self.good.replacingOccurrences(of: "steps.now.output.date }}\n      limit", with: "steps.nw.output.date }}\n      limit")
        text = text.replacingOccurrences(of: "inputs.zone", with: "inputs.zon")
        #expect(problems(text) == [
            "w.yaml:13:21: step now: ${{ inputs.zon }}: the inputs have no 'zon'; use one of: zone, or declare it",
            "w.yaml:17:17: step events: ${{ steps.nw.output.date }} names no step 'nw'; use one of: now, events, summary",
        ])
    }

    @Test func aTypeMismatchSaysBothTypes() {
        let text = Self.good.replacingOccurrences(of: "limit: 5", with: "limit: ${{ steps.now.output.date }}")
        #expect(problems(text) == [
            "w.yaml:18:18: step events: ${{ steps.now.output.date }} is string but calendar.list_events's 'limit' takes integer or null; refer to a value of that type"
        ])
    }

    @Test func anOutputPathTheSchemaDoesNotOffer() {
        let text = Self.good.replacingOccurrences(of: "steps.now.output.date }}\n      limit", with: "steps.now.output.day }}\n      limit")
        #expect(problems(text) == ["w.yaml:17:17: step events: ${{ steps.now.output.day }}: clock.now's output has no 'day'; use one of: date, hour"])
    }

    @Test func aCycleIsRefusedWithItsPath() {
        let text = """
            name: loop
            steps:
              - id: a
                skill: clock.now
                needs: c
              - id: b
                skill: clock.now
                needs: a
              - id: c
                skill: clock.now
                needs: [b]
            """
        #expect(problems(text) == ["w.yaml:3:5: the steps form a cycle: a → c → b → a; remove one of these dependencies"])
    }

    @Test func everyFaultAtOnce() {
        let text = """
            name: Bad Name
            colour: red
            steps:
              - id: a
                skill: clock.now
                with:
                  timezone: UTC
                retry:
                  count: many
              - id: b
                skill: text.summarize
                timeout: -1
                arguments:
                  sentences: two
                  txt: hello
            """
        #expect(problems(text) == [
            "w.yaml:1:1: the name 'Bad Name' is not a workflow name: use lowercase letters, digits, '_' and '-', starting with a letter (it becomes the skill workflow.NAME)",
            "w.yaml:2:1: unknown key 'colour'; a workflow has deliver, description, inputs, name, steps",
            "w.yaml:6:5: step a: unknown key 'with'; write 'arguments'",
            "w.yaml:9:7: step a: retry count must be a whole number from 0 to 100",
            "w.yaml:12:5: step b: timeout is seconds over 0 and at most 86400 (e.g. 30 or 1500ms)",
        ])
    }

    @Test func argumentFaultsAfterTheFileReads() {
        let text = """
            name: args
            steps:
              - id: b
                skill: text.summarize
                arguments:
                  sentences: two
                  txt: hello
            """
        #expect(problems(text) == [
            "w.yaml:5:5: step b: text.summarize needs the argument 'text'; add it under arguments",
            "w.yaml:6:7: step b: the argument 'sentences' of text.summarize is not valid: expected an integer, got \"two\"; fix the value",
            "w.yaml:7:7: step b: text.summarize has no parameter 'txt'; use one of: text, sentences",
        ])
    }

    @Test func yamlAndJSONSyntaxErrorsHaveTheirPosition() {
        #expect(problems("name: a\nsteps:\n  - id: x\n\tskill: clock.now\n") == ["w.yaml:4:1: tabs cannot indent YAML; use spaces"])
        #expect(problems("{\"name\": \"a\", \"steps\": [}") .count == 1)
        #expect(problems("{\"name\": \"a\", \"steps\": [}").first?.hasPrefix("w.yaml:1:") == true)
        #expect(problems("name: a\nsteps:\n  - id: x\n    skill: clock.now\n    if: steps.x.outputs\n") == [
            "w.yaml:5:5: step x: if: 'steps.x.outputs': a step offers only its output; write steps.x.output…"
        ])
    }

    @Test func aJSONWorkflowReadsTyped() throws {
        let text = """
            {"name": "j", "steps": [
              {"id": "now", "skill": "clock.now"},
              {"id": "sum", "skill": "text.summarize", "arguments": {"text": "${{ steps.now.output.date }}", "sentences": 1}}
            ]}
            """
        #expect(problems(text) == [])
        let workflow = try WorkflowParser.parse(text, file: "w.json").get()
        #expect(workflow.step("sum")?.arguments["sentences"] == 1)
    }

    /// `deliver`: its faults, each on its line, and its references checked as a step's are.
    @Test func deliveryFaults() {
        let head = """
            name: d
            steps:
              - id: now
                skill: clock.now
            deliver:

            """
        #expect(problems(head + "  to: /etc/passwd\n  text: x\n") == [
            "w.yaml:6:3: deliver.to '/etc/passwd' is an absolute path; give a relative path under the deliveries folder such as 'briefings/today.md'",
        ])
        #expect(problems(head + "  to: ../up.txt\n  text: x\n") == [
            "w.yaml:6:3: deliver.to '../up.txt' leaves the deliveries folder ('..'); give a relative path under the deliveries folder such as 'briefings/today.md'",
        ])
        #expect(problems(head + "  to: a//b.txt\n  text: x\n") == [
            "w.yaml:6:3: deliver.to 'a//b.txt' has an empty or '.' part; give a relative path under the deliveries folder such as 'briefings/today.md'",
        ])
        #expect(problems(head + "  to: a.txt\n") == [
            "w.yaml:5:1: deliver needs 'text': what the file holds, e.g. text: ${{ steps.summary.output.summary }}",
        ])
        #expect(problems(head + "  to: a.txt\n  text: x\n  mode: 600\n") == ["w.yaml:8:3: deliver has 'to' and 'text', not 'mode'; remove it"])
        #expect(problems(head.replacingOccurrences(of: "deliver:\n", with: "deliver: out.txt\n")) == [
            "w.yaml:5:1: deliver is a mapping with 'to' (a path under the deliveries folder) and 'text'; e.g. to: briefing.md",
        ])
        #expect(problems(head + "  to: ${{ steps.now.output.date }}.txt\n  text: ${{ steps.later.output }}\n") == [
            "w.yaml:7:3: deliver.text: ${{ steps.later.output }} names no step 'later'; use one of: now",
        ])
        #expect(problems(head + "  to: x.txt\n  text: ${{ steps.now.output.nope }}\n") == [
            "w.yaml:7:3: deliver.text: ${{ steps.now.output.nope }}: clock.now's output has no 'nope'; use one of: date, hour",
        ])
        #expect(problems(head + "  to: ${{ steps.now.output.date }}.txt\n  text: ${{ steps.now.output }}\n") == [])
    }

    /// A reference into an output no schema describes is run, not refused, and said so once per step.
    @Test func uncheckedReferencesAreNotedNotRefused() throws {
        let text = """
            name: n
            steps:
              - id: s
                skill: text.summarize
                arguments:
                  text: hello
              - id: t
                skill: text.summarize
                arguments:
                  text: "${{ steps.s.output.summary }} and ${{ steps.s.output.more }}"
            """
        let workflow = try WorkflowParser.parse(text, file: "w.yaml").get()
        let report = WorkflowChecker(tools: Self.tools).report(of: workflow, source: text)
        #expect(report.problems.isEmpty)
        #expect(report.notes.map(\.description) == [
            "w.yaml:10:18: note: 2 references into step s's output are not type-checked: text.summarize declares no output schema; run the workflow to check them",
        ])
    }
}
