"""A Python `mcp` client calling an MCP server's tool through `skillhost mcp` (the gateway path, issue #35).

Run by Tests/skillhostTests/MCPSourcePeerTests.swift:
    python mcp_gateway_client.py SKILLHOST REGISTRY STATE DATA
Prints the tool names it was offered and the result of time_get_current_time for Asia/Tokyo as JSON.
"""

import json
import sys

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

SKILLHOST, REGISTRY, STATE, DATA = sys.argv[1:5]


async def main():
    server = StdioServerParameters(
        command=SKILLHOST, args=["mcp", "--registry", REGISTRY, "--plugins", DATA + "/plugins", "--cache", DATA + "/cache",
                                 "--skills", DATA + "/skills"],
        env={"SKILLHOST_STATE": STATE, "XDG_DATA_HOME": DATA, "PATH": "/usr/bin:/bin"})
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            result = await session.call_tool("time_get_current_time", {"timezone": "Asia/Tokyo"})
            print(json.dumps({
                "tools": sorted(tool.name for tool in tools.tools),
                "annotations": {tool.name: tool.annotations.model_dump(exclude_none=True, by_alias=True) if tool.annotations else None
                                for tool in tools.tools},
                "isError": result.is_error,
                "structured": result.structured_content,
                "text": [item.text for item in result.content if item.type == "text"],
            }))


anyio.run(main)
