"""The stateless revision of MCP (2026-07-28) as `skillhost mcp` speaks it to an MCP source that offers it
(Sources/SkillHostCore/MCPClient/MCPServerSession.swift, `statelessMeta`; MCPClientConnection adds the
`progressToken`): no `initialize`; every request carries the revision, the client's capabilities and its
info in `_meta`. The bench's direct rows speak it too, so that "the server's own time" is the server's time
for the very requests the gateway sends it (the Python SDK's server spends ~0.1 ms more on such a request
than on one of a 2025-06-18 session).
"""

PREFIX = "stateless:"
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "skillhost", "version": "1"},
}


def parse(tool: str) -> tuple[str, bool]:
    """A tool argument: its name, and whether the server is spoken to in the stateless revision."""
    return (tool[len(PREFIX):], True) if tool.startswith(PREFIX) else (tool, False)


def params(tool: str, arguments: dict, request_id: int, stateless: bool) -> dict:
    """A `tools/call`'s params; stateless, with the `_meta` skillhost sends (its progress token is the id)."""
    result = {"name": tool, "arguments": arguments}
    if stateless:
        result["_meta"] = dict(META, progressToken=request_id)
    return result
