import SkillCalls
import SkillHostCore
import SkillJSON

/// Approvals of one run, asked once, up front: the run's `write` and `dangerous` steps are listed in one
/// question before anything runs (``WorkflowSkill/description(of:tools:path:)`` names them in the title the
/// prompt shows); the steps then get that answer without asking again. A question about running again a
/// step that may have taken effect (a resumed run's interrupted step) still goes to the person, each time.
public struct RunApproval: ApprovalHandler {
    /// The answer to the up-front question.
    public let approved: Bool
    /// Who is asked about retries.
    public let person: any ApprovalHandler

    public init(approved: Bool, person: any ApprovalHandler) {
        self.approved = approved
        self.person = person
    }

    /// Asks `person` once about the steps of `workflow` that need approval and are not among `finished`
    /// (a resumed run's done steps: they will not run again), none: allowed without asking.
    public static func ask(
        _ person: any ApprovalHandler, workflow: Workflow, tools: [String: SkillTool], input: JSONValue, path: String,
        finished: Set<String> = []
    ) async -> RunApproval {
        let skill = WorkflowSkill.description(of: workflow, tools: tools.filter { !finished.contains($0.key) }, path: path)
        guard skill.approval == .ask else { return RunApproval(approved: true, person: person) }
        return RunApproval(approved: await person.approve(ApprovalRequest(skill: skill, arguments: input)), person: person)
    }

    public func approve(_ request: ApprovalRequest) async -> Bool {
        if case .retry = request.reason { return await person.approve(request) }
        return approved
    }

    public func refusal(of request: ApprovalRequest) -> String? {
        if case .retry = request.reason { return person.refusal(of: request) }
        return "step skill \(request.skill.id) (\(request.skill.permission.rawValue)) was not approved when the run began; nothing was run (pass --yes or answer y)"
    }
}

/// A workflow as a skill: what approvals and `workflow.NAME` show of it.
public enum WorkflowSkill {
    /// The steps that need approval: `ID (SKILL, PERMISSION)`.
    public static func stepsNeedingApproval(of workflow: Workflow, tools: [String: SkillTool]) -> [String] {
        workflow.steps.compactMap { step in
            tools[step.id].flatMap { $0.permission.needsApproval ? "\(step.id) (\($0.id), \($0.permission.rawValue))" : nil }
        }
    }

    /// The skill `workflow.NAME`: its inputs as parameters, the highest permission of its steps, asked about
    /// (`approval` `ask`) when a step needs approval, those steps named in its title and description.
    public static func description(of workflow: Workflow, tools: [String: SkillTool], path: String) -> SkillDescription {
        let asking = stepsNeedingApproval(of: workflow, tools: tools)
        let permission = Permission.allCases.last { level in tools.values.contains { $0.permission == level } } ?? .read
        var text = workflow.description.isEmpty ? "The workflow \(workflow.name)." : workflow.description
        var title = "workflow \(workflow.name)"
        if !asking.isEmpty {
            text += " Steps that change things: " + asking.joined(separator: ", ") + "."
            title += "; its steps that change things: " + asking.joined(separator: ", ")
        }
        let manifest = SkillManifest(
            id: InstalledWorkflows.prefix + workflow.name, title: title, description: text, parameters: workflow.inputs,
            permission: permission, timeout: 3600, idempotent: tools.values.allSatisfy(\.idempotent))
        return SkillDescription(manifest: manifest, pluginID: "workflow", pluginPath: path, enabled: true, approval: asking.isEmpty ? .allow : .ask)
    }
}
