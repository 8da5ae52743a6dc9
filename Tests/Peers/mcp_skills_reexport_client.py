"""A Python `mcp` client reading the skills `skillhost mcp` re-exports from the MCP servers it uses (the Skills
extension, issue #35): skills/list (raw: the SDK has no type for it), then resources/read of each URI given.

Run by Tests/skillhostTests/MCPSkillSourceTests.swift, over stdio (the client starts `skillhost mcp`) or over
Streamable HTTP (a `skillhost mcp --http` the test started, with a bearer token):
    python mcp_skills_reexport_client.py SKILLHOST ENV_JSON GLOBAL_ARGS_JSON URI...
    python mcp_skills_reexport_client.py --http URL TOKEN URI...
Prints {"skills": [entry...], "reads": {URI: text | "ERROR: message"}} as JSON.
"""
import json
import sys
from typing import Any

import anyio
from pydantic import BaseModel, ConfigDict

from mcp import types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
import httpx2

HTTP = sys.argv[1] == "--http"
if HTTP:
    URL, TOKEN, URIS = sys.argv[2], sys.argv[3], sys.argv[4:]
else:
    SKILLHOST, ENV, GLOBAL, URIS = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4:]


class AnyResult(BaseModel):
    model_config = ConfigDict(extra="allow")


def transport():
    if HTTP:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        return streamable_http_client(URL, http_client=httpx2.AsyncClient(headers=headers, timeout=60))
    return stdio_client(StdioServerParameters(command=SKILLHOST, args=["mcp", *GLOBAL], env=ENV))


async def main():
    async with transport() as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            await session.initialize()
            request = types.Request[dict[str, Any], str](method="skills/list", params={})
            listing = (await session.send_request(request, AnyResult)).model_dump(by_alias=True)
            reads = {}
            for uri in URIS:
                try:
                    result = await session.read_resource(uri)
                    reads[uri] = "".join(getattr(c, "text", "") for c in result.contents)
                except Exception as error:  # the server's refusal, as the client sees it
                    reads[uri] = "ERROR: " + str(error)
            print(json.dumps({"skills": listing.get("skills", []), "reads": reads}))


anyio.run(main)
