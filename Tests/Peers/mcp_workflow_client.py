"""An installed workflow as an MCP tool, through the official Python MCP client (the `mcp` package from PyPI).

Run by Tests/skillhostTests/WorkflowCLITests.swift:
    python mcp_workflow_client.py SKILLHOST ROOT
ROOT holds plugins/ (the bundled skills), workflows/ (morning-briefing installed), config/, cache/. Prints
"all checks passed", or exits 1 at the first failed check.
"""

import sys

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

SKILLHOST, ROOT = sys.argv[1], sys.argv[2]
GLOBAL = ["--plugins", f"{ROOT}/plugins", "--registry", f"{ROOT}/config/skill_registry.json", "--cache", f"{ROOT}/cache",
          "--skills", f"{ROOT}/skills"]
ENV = {"XDG_DATA_HOME": f"{ROOT}/xdg-data", "SKILLHOST_STATE": f"{ROOT}/state", "TZ": "UTC"}


def check(condition: bool, what: str) -> None:
    if not condition:
        print(f"FAILED: {what}")
        sys.exit(1)
    print(f"ok: {what}")


async def main() -> None:
    server = StdioServerParameters(command=SKILLHOST, args=["mcp", *GLOBAL], env=ENV)
    with open(f"{ROOT}/mcp-stderr.log", "w") as errlog:
        async with stdio_client(server, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                listed = await session.list_tools()
                tool = next((t for t in listed.tools if (t.meta or {}).get("dev.skillhost/skillId") == "workflow.morning-briefing"), None)
                check(tool is not None, f"tools/list offers workflow.morning-briefing ({sorted(t.name for t in listed.tools)})")
                check(tool.input_schema.get("properties", {}).get("zone", {}).get("type") == "string",
                      "its inputSchema is the workflow's inputs")
                result = await session.call_tool(tool.name, {"zone": "UTC"})
                content = result.structured_content or {}
                check(not result.is_error and content.get("state") == "done", f"tools/call ran the workflow: {str(content)[:120]}")
                check("summary" in content.get("outputs", {}), "the result holds every step's output")
                check(str(content.get("delivered", "")).endswith(".md"), f"the briefing was delivered: {content.get('delivered')}")
                bad = await session.call_tool(tool.name, {"zone": 5})
                check(bad.is_error, "arguments that do not fit the inputs are refused")
    print("all checks passed")


anyio.run(main)
