import SkillJSON

/// A workflow: skills composed into a directed graph (docs/workflows.md). Read from a file by
/// ``WorkflowParser``, checked by ``WorkflowChecker``, run by ``WorkflowRunner``.
public struct Workflow: Sendable {
    /// The workflow's name (an identifier: lowercase letters, digits, `_`, `-`); installed, it is the skill
    /// `workflow.NAME`.
    public var name: String
    /// What it does, for people and models.
    public var description: String
    /// The JSON Schema (an object schema) of the run's input.
    public var inputs: JSONValue
    /// The steps, in file order.
    public var steps: [WorkflowStep]
    /// The file it was read from ("" for none), for messages.
    public var file: String
    /// Whether the file's scalars are all text (YAML as the frontmatter parser reads it): an argument's text is
    /// then typed by the parameter schema it feeds (``SchemaTyping``).
    public var scalarsAreText: Bool
    /// Where the run's result is written when it succeeds (`deliver`), nil: nowhere.
    public var delivery: WorkflowDelivery?

    /// A workflow with these parts.
    public init(
        name: String, description: String = "", inputs: JSONValue = ["type": "object"], steps: [WorkflowStep],
        file: String = "", scalarsAreText: Bool = false
    ) {
        self.name = name
        self.description = description
        self.inputs = inputs
        self.steps = steps
        self.file = file
        self.scalarsAreText = scalarsAreText
    }

    /// The step with `id`.
    public func step(_ id: String) -> WorkflowStep? { steps.first { $0.id == id } }
}

/// One step: a call of one skill.
public struct WorkflowStep: Sendable {
    /// Unique within the workflow; references name it (`${{ steps.ID.output }}`).
    public var id: String
    /// The skill called (any skill the host offers).
    public var skill: String
    /// The arguments: values, where strings may hold references (``WorkflowTemplate``).
    public var arguments: JSONValue
    /// Steps that must end before this one, beyond those its references imply.
    public var needs: [String]
    /// Runs only when this condition holds (``WorkflowCondition``); nil: always.
    public var condition: String?
    /// How often a failed call is tried again, and the wait between tries.
    public var retry: RetryPolicy
    /// Seconds the step may take in all (every try); nil: each call's own skill timeout only.
    public var timeout: Double?
    /// A failure of this step does not stop its dependants (they see its output as null).
    public var continueOnError: Bool
    /// Where the step starts in its file.
    public var position: SourcePosition

    /// A step with these parts.
    public init(
        id: String, skill: String, arguments: JSONValue = .object(JSONObject()), needs: [String] = [],
        condition: String? = nil, retry: RetryPolicy = RetryPolicy(), timeout: Double? = nil, continueOnError: Bool = false,
        position: SourcePosition = SourcePosition(line: 0, column: 0)
    ) {
        self.id = id
        self.skill = skill
        self.arguments = arguments
        self.needs = needs
        self.condition = condition
        self.retry = retry
        self.timeout = timeout
        self.continueOnError = continueOnError
        self.position = position
    }

    /// The steps this one waits for: its `needs`, and every step its arguments or condition refer to.
    public var dependencies: [String] {
        var seen = Set<String>()
        var result: [String] = []
        var references = WorkflowTemplate.references(in: arguments)
        if let condition, let parsed = try? WorkflowCondition(condition) { references += parsed.references }
        for id in needs + references.compactMap(\.stepID) where seen.insert(id).inserted { result.append(id) }
        return result
    }
}

/// How a failed step is tried again.
public struct RetryPolicy: Sendable, Equatable {
    /// Tries after the first (0: none).
    public var count: Int
    /// Seconds before the first retry; each later wait doubles it.
    public var backoff: Double

    /// A policy.
    public init(count: Int = 0, backoff: Double = 1) {
        self.count = count
        self.backoff = backoff
    }

    /// Seconds to wait before retry `number` (1-based).
    public func delay(beforeRetry number: Int) -> Double {
        backoff * Double(1 << min(max(number - 1, 0), 16))
    }
}

/// A 1-based line and column in a workflow file (0: unknown).
public struct SourcePosition: Sendable, Equatable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}
