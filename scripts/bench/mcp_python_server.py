"""The Python `mcp` package's own server (MCPServer, formerly FastMCP) serving the same trivial tool as
scripts/bench/dispatch_echo.c: `bench.echo` returns its arguments. Used by scripts/bench-mcp.sh; its
--gateway row runs it with a tool name argument (`echo`: a dotted name cannot be a tool of an MCP source)."""

import sys
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

server = MCPServer("bench-python")


@server.tool(name=sys.argv[1] if len(sys.argv) > 1 else "bench.echo", description="Returns its arguments unchanged.",
             annotations=ToolAnnotations(readOnlyHint=True))  # a read skill: served without approval
def echo(text: str) -> dict[str, Any]:
    return {"text": text}


if __name__ == "__main__":
    server.run("stdio")
