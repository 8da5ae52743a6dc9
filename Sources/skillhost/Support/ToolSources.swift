import SkillCalls
import SkillHostCore
import SkillWorkflows

/// The skills every conversational front end (`chat`, `mcp`, `ui`) offers beyond the host's plugins: the
/// registry's MCP servers' tools (`NAME.tool`, docs/mcp-sources.md) and the installed workflows
/// (`workflow.NAME`, docs/workflows.md), stacked once here so the front ends cannot offer different sets.
/// Instruction skills and their scripts go on top (SkillAgent's `StoredChat.agent`, `mcp`'s
/// `ScriptToolBackend`).
struct ToolSources {
    /// The MCP servers' tools over the base backend (its servers are stopped by ``shutdown()``).
    let mcp: MCPSourceBackend
    /// The workflows over ``mcp``: the backend to call through.
    let backend: WorkflowSkillBackend

    /// The stack over `base` (the host's plugin backend) for these options.
    init(_ parsed: ParsedArguments, host: SkillHost, base: any SkillBackend) {
        self.init(parsed, host: host, mcp: MCPSourceText.backend(parsed, host: host, base: base))
    }

    /// The stack over MCP servers' tools already opened (whose skills a front end lists too).
    init(_ parsed: ParsedArguments, host: SkillHost, mcp: MCPSourceBackend) {
        self.mcp = mcp
        backend = WorkflowCommand.backend(wrapping: mcp, host: host, parsed)
    }

    /// Stops the MCP servers this stack started.
    func shutdown() { mcp.shutdown() }
}
