"""A Python `mcp` client that watches an MCP server's tools change through ONE `skillhost mcp` process (the
gateway path, issue #35): it lists the tools, calls `sdk_grow` (the source server adds the tool `grown` and
says its list changed), then lists again until the new tool is offered (at most WAIT seconds), and calls it.

Run by Tests/SkillMCPTests/MCPSourceHTTPTests.swift:
    python mcp_source_change_client.py WAIT SKILLHOST [ARGUMENT...]      (the environment is passed on)
Prints JSON: the tools before, the tools after, the seconds it took, whether `skillhost mcp` itself sent
`notifications/tools/list_changed`, and the text of `sdk_grown`'s result (null when it never appeared).
"""

import json
import os
import sys
import time

import anyio
import mcp_types as types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

WAIT, SKILLHOST, ARGUMENTS = float(sys.argv[1]), sys.argv[2], sys.argv[3:]


async def main():
    announced = []

    async def on_message(message):
        if isinstance(message, types.ServerNotification) or hasattr(message, "method"):
            method = getattr(getattr(message, "root", message), "method", None)
            if method == "notifications/tools/list_changed":
                announced.append(time.monotonic())

    server = StdioServerParameters(command=SKILLHOST, args=ARGUMENTS, env=dict(os.environ))
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write, message_handler=on_message) as session:
            await session.initialize()
            before = sorted(tool.name for tool in (await session.list_tools()).tools)
            grew = await session.call_tool("sdk_grow", {})
            started = time.monotonic()
            after, text = before, None
            while time.monotonic() - started < WAIT:
                after = sorted(tool.name for tool in (await session.list_tools()).tools)
                if "sdk_grown" in after:
                    break
                # Only listed: the gateway must list the source again when the source says its tools changed
                # (nothing else here would make it).
                await anyio.sleep(0.2)
            listed = time.monotonic() - started
            if "sdk_grown" in after:
                result = await session.call_tool("sdk_grown", {})
                text = [item.text for item in result.content if item.type == "text"]
            print(json.dumps({
                "before": before, "after": after, "grew": [item.text for item in grew.content if item.type == "text"],
                "seconds": round(listed, 2), "announced": bool(announced), "grown": text,
            }))


anyio.run(main)
