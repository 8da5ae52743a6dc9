"""An MCP server that serves skills through the Skills extension (SEP-2640, io.modelcontextprotocol/skills),
written with the PyPI `mcp` SDK's MCPServer: the SDK declares the extension under capabilities.extensions and
routes skills/list and skills/get to it; skill files are ordinary resources read with resources/read.

usage: python mcp_skills_server.py SCENARIO.json

SCENARIO.json: {"skills": [ENTRY...], "files": {URI: TEXT...}, "log": PATH?}. Each ENTRY is served verbatim by
skills/list and skills/get (so a test can make it lie: a wrong digest or size, a file it does not list, a
frontmatter unlike its SKILL.md's, too many files, "dynamic"); FILES are what resources/read answers. Every
resources/read URI is appended to LOG (one a line), so a test sees what was fetched and when.
"""
import json
import sys

from mcp.server.extension import Extension, MethodBinding
from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, ConfigDict

scenario = json.load(open(sys.argv[1]))
log_path = scenario.get("log")


class Params(BaseModel):
    model_config = ConfigDict(extra="allow")
    cursor: str | None = None
    uri: str | None = None


class Skills(Extension):
    identifier = "io.modelcontextprotocol/skills"

    def settings(self):
        return {}

    def methods(self):
        async def list_skills(ctx, params):
            return {"skills": scenario["skills"], "ttlMs": 30000, "cacheScope": "public"}

        async def get_skill(ctx, params):
            for entry in scenario["skills"]:
                if entry.get("uri") == params.uri:
                    return {"skill": entry, "ttlMs": 30000, "cacheScope": "public"}
            raise ValueError(f"no skill is served at {params.uri}")

        return [MethodBinding("skills/list", Params, list_skills), MethodBinding("skills/get", Params, get_skill)]


async def declare_on_initialize(ctx, call_next):
    """The SDK advertises extensions in the 2026-07-28 handshake (server/discover) only; to a client that
    initializes with 2025-11-25 the same declaration is added to the initialize result's capabilities."""
    result = await call_next(ctx)
    if ctx.method == "initialize" and isinstance(result, dict) and not scenario.get("undeclared"):
        result.setdefault("capabilities", {}).setdefault("extensions", {})[Skills.identifier] = {}
    return result


server = MCPServer("skills-test-server", extensions=[Skills()], middleware=[declare_on_initialize])


def serve(uri, text):
    def read() -> str:
        if log_path:
            with open(log_path, "a") as log:
                log.write(uri + "\n")
        return text

    server.resource(uri, name=uri.rsplit("/", 1)[-1], mime_type="text/markdown")(read)


for uri, text in scenario["files"].items():
    serve(uri, text)

server.run("stdio")
