"""An MCP server written with the Python `mcp` SDK's `MCPServer`, used as a skill source by skillhost
(Tests/SkillMCPTests/MCPSourceHTTPTests.swift): over stdio, or over Streamable HTTP with uvicorn behind a
bearer-token check of its own. `--legacy` removes its `server/discover` handler, so it speaks only the
`initialize` revisions (as servers written before 2026-07-28 do).

    mcp_sdk_source_server.py stdio [--legacy]
    mcp_sdk_source_server.py http PORT TOKEN [--legacy] [--json]     (PORT 0: any free port, printed)

Tools: `echo` (its text back, structured), `slow` (reports progress every 0.2 s for 1.2 s), `huge`
(a 17 MiB text: more than a skill's result may have), `grow` (adds the tool `grown` and sends
`notifications/tools/list_changed` on the connection, not in its answer: over Streamable HTTP the
SDK routes it to the session's standalone `GET` stream, or under 2026-07-28 to `subscriptions/listen` streams). Its `initialize` says `tools.listChanged: true`.
Over HTTP, `/html` answers a web page, not MCP.
"""

import sys

from mcp.server import NotificationOptions
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.subscriptions import ToolsListChanged
from mcp_types import ToolAnnotations

server = MCPServer("sdk-source")


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def echo(text: str) -> dict:
    """Says the text back."""
    return {"echoed": text}


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
async def slow(ctx: Context) -> str:
    """Works for 1.2 s, reporting progress."""
    import anyio

    for step in range(6):
        await ctx.report_progress(step, 6)
        await anyio.sleep(0.2)
    return "done"


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def huge() -> str:
    """A result far larger than a client should take."""
    return "x" * (17 << 20)


def grown() -> str:
    """Added by `grow`."""
    return "grown here"


@server.tool()
async def grow(ctx: Context) -> str:
    """Adds the tool `grown`, then tells the client its tool list changed."""
    if all(tool.name != "grown" for tool in server._tool_manager.list_tools()):
        server.add_tool(grown)
    # Not tied to this request (no related request id): over HTTP on a session it goes to the standalone GET
    # stream; under the stateless revision the SDK drops it and delivers the bus's event on every
    # `subscriptions/listen` stream that asked for tool changes.
    await ctx.session.send_tool_list_changed()
    await server._subscriptions.publish(ToolsListChanged())
    return "grew"


# The SDK says `tools.listChanged` in `initialize` only when told to.
_initialization_options = server._lowlevel_server.create_initialization_options
server._lowlevel_server.create_initialization_options = lambda notification_options=None, *rest, **named: (
    _initialization_options(notification_options or NotificationOptions(tools_changed=True), *rest, **named))


def main() -> None:
    mode = sys.argv[1]
    if "--legacy" in sys.argv:
        server._lowlevel_server._request_handlers.pop("server/discover", None)
    if mode == "stdio":
        server.run("stdio")
        return
    port, token = int(sys.argv[2]), sys.argv[3]
    import uvicorn

    app = server.streamable_http_app(json_response="--json" in sys.argv)

    async def guarded(scope, receive, send):
        if scope["type"] == "http" and scope["path"] == "/html":
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/html")]})
            await send({"type": "http.response.body", "body": b"<html><body>not MCP</body></html>"})
            return
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            if headers.get(b"authorization") != b"Bearer " + token.encode():
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")]})
                await send({"type": "http.response.body", "body": b'{"error":"invalid_token"}'})
                return
        await app(scope, receive, send)

    import socket

    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(64)
    print(f"serving on {listener.getsockname()[1]}", file=sys.stderr, flush=True)
    uvicorn.Server(uvicorn.Config(guarded, log_level="warning", lifespan="on")).run(sockets=[listener])


if __name__ == "__main__":
    main()
