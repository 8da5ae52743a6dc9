"""Drives `skillhost mcp` with the official Python MCP client (the `mcp` package from PyPI).

Run by Tests/SkillMCPTests/PythonClientTests.swift:
    python mcp_stdio_client.py SKILLHOST ROOT
ROOT holds plugins/ (with the fixture plugin as fixture.so), skills/ (the time-zones skill), config/ and cache/. Prints one line per
check ("ok: ..."), and exits 1 at the first failed check ("FAILED: ...").
"""

import hashlib
import base64
import json
import os
import subprocess
import sys
import time
from typing import Any

import anyio
from pydantic import BaseModel, ConfigDict

from mcp import types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

SKILLHOST, ROOT = sys.argv[1], sys.argv[2]
GLOBAL = ["--plugins", f"{ROOT}/plugins", "--registry", f"{ROOT}/config/skill_registry.json", "--cache", f"{ROOT}/cache",
          "--skills", f"{ROOT}/skills"]
ENV = {"XDG_DATA_HOME": f"{ROOT}/xdg-data", "SKILLHOST_STATE": f"{ROOT}/state"}
CLIENT_NAME = "skillhost-peer-test"
SKILLS_EXTENSION = "io.modelcontextprotocol/skills"


def check(condition: bool, what: str) -> None:
    if not condition:
        print(f"FAILED: {what}", flush=True)
        sys.exit(1)
    print(f"ok: {what}", flush=True)


def text_of(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


class AnyResult(BaseModel):
    """A result of a method the SDK has no type for (skills/list), every field kept."""

    model_config = ConfigDict(extra="allow")


async def raw_request(session: ClientSession, method: str, params: dict[str, Any]) -> dict[str, Any]:
    request = types.Request[dict[str, Any], str](method=method, params=params)
    result = await session.send_request(request, AnyResult)
    return result.model_dump(by_alias=True)


async def with_sdk_client() -> None:
    tools_changed = anyio.Event()

    async def on_message(message: Any) -> None:
        inner = getattr(message, "root", message)
        if getattr(inner, "method", None) == "notifications/tools/list_changed":
            tools_changed.set()

    server = StdioServerParameters(command=SKILLHOST, args=["mcp", *GLOBAL], env=ENV)
    errlog = open(f"{ROOT}/server-stderr.log", "w")
    async with stdio_client(server, errlog=errlog) as (read, write):
        async with ClientSession(read, write, message_handler=on_message,
                                 client_info=types.Implementation(name=CLIENT_NAME, version="1.0")) as session:
            init = await session.initialize()
            check(init.server_info.name == "skillhost", f"initialize: server {init.server_info.name}, protocol {init.protocol_version}")

            listed = await session.list_tools()
            names = {tool.name for tool in listed.tools}
            check({"fixture.echo", "fixture.note", "fixture.slow"} <= names, f"tools/list has the fixture's skills ({len(names)} tools)")
            echo = next(tool for tool in listed.tools if tool.name == "fixture.echo")
            check(echo.annotations is not None and echo.annotations.read_only_hint is True, "fixture.echo is read-only")
            check(echo.input_schema.get("properties", {}).get("count", {}).get("type") == "integer", "inputSchema is the skill's parameters")
            # The fixture is built with OUTPUT_SCHEMAS: echo's manifest declares output_schema. The client keeps
            # it as outputSchema and itself validates each structured result of that tool against it.
            check((echo.output_schema or {}).get("required") == ["echo", "call_id"], f"outputSchema is the skill's output_schema: {echo.output_schema}")

            result = await session.call_tool("fixture.echo", {"text": "hi", "count": 2})
            check(not result.is_error, f"tools/call fixture.echo: {text_of(result)[:80]}")
            check((result.structured_content or {}).get("echo") == {"text": "hi", "count": 2}, "structuredContent is the skill's result")
            check(isinstance((result.structured_content or {}).get("call_id"), str), "the client accepted a structured result checked against outputSchema")

            nonconforming = await session.call_tool("fixture.config", {})
            check(nonconforming.is_error is True and "output_schema" in text_of(nonconforming) and "never_there" in text_of(nonconforming),
                  f"a result that breaks its outputSchema gives isError: {text_of(nonconforming)[:160]}")

            bad = await session.call_tool("fixture.echo", {"count": -1})
            check(bad.is_error is True and "/count" in text_of(bad), f"bad arguments give isError: {text_of(bad)[:120]}")

            refused = await session.call_tool("fixture.note", {"text": "x"})
            check(refused.is_error is True and "--allow-writes" in text_of(refused), "a write skill is refused with its remedy")

            try:
                await session.call_tool("fixture.nothing", {})
                check(False, "an unknown tool is an error")
            except Exception as error:  # MCPError
                check("-32602" in repr(error) or "unknown tool" in str(error), f"an unknown tool is a JSON-RPC error: {error}")

            progress: list[float] = []

            async def on_progress(value: float, total: float | None, message: str | None) -> None:
                progress.append(value)

            slow = await session.call_tool("fixture.slow", {}, progress_callback=on_progress)
            check(len(progress) >= 1 and progress == sorted(progress), f"notifications/progress during a 5 s call: {progress}")
            check(slow.is_error is True, f"the slow skill ends at its timeout: {text_of(slow)[:100]}")

            started = time.monotonic()
            with anyio.move_on_after(1):
                await session.call_tool("fixture.slow", {})
            again = await session.call_tool("fixture.echo", {"text": "after"})
            check(not again.is_error and time.monotonic() - started < 4, "the server keeps serving after a call the client abandoned")
            errlog.flush()
            with open(f"{ROOT}/server-stderr.log") as log:
                check("cancelling call" in log.read(), "the client's notifications/cancelled reached the server")

            extensions = init.capabilities.extensions or {}
            check(SKILLS_EXTENSION in extensions, "the Skills extension is declared")
            listing = await raw_request(session, "skills/list", {})
            check(isinstance(listing.get("skills"), list), f"skills/list answers ({len(listing['skills'])} skills)")
            check(any(skill["uri"] == "skill://time-zones/SKILL.md" for skill in listing["skills"]),
                  "the installed instruction skill time-zones is listed")
            for skill in listing["skills"]:
                got = await raw_request(session, "skills/get", {"uri": skill["uri"]})
                check(got["skill"]["uri"] == skill["uri"], f"skills/get {skill['uri']}")
                for resource in skill["resources"]:
                    contents = (await session.read_resource(resource["uri"])).contents[0]
                    data = contents.text.encode() if getattr(contents, "text", None) is not None else base64.b64decode(contents.blob)
                    digest = "sha256:" + hashlib.sha256(data).hexdigest()
                    check(digest == resource["digest"], f"digest of {resource['uri']}")

            started = time.monotonic()
            subprocess.run([SKILLHOST, "disable", "fixture.echo", *GLOBAL], check=True, env={**os.environ, **ENV},
                           stdout=subprocess.DEVNULL)
            with anyio.fail_after(5):
                await tools_changed.wait()
            elapsed = time.monotonic() - started
            check(elapsed < 2.0, f"notifications/tools/list_changed {elapsed:.2f} s after 'skillhost disable' in another process")
            names = {tool.name for tool in (await session.list_tools()).tools}
            check("fixture.echo" not in names and "fixture.note" in names, "the disabled skill left tools/list")


def with_raw_lines() -> None:
    """A malformed line, written raw: answered with -32700, and the server keeps serving."""
    process = subprocess.Popen([SKILLHOST, "mcp", *GLOBAL], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               env={**os.environ, **ENV})
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}},
        "{this is not json",
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "fixture.note", "arguments": {"text": 1}}},
        {"jsonrpc": "2.0", "id": 3, "method": "ping"},
    ]
    payload = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    out, _ = process.communicate(payload.encode(), timeout=30)
    answers = [json.loads(line) for line in out.decode().splitlines()]
    check(any(a.get("error", {}).get("code") == -32700 and a.get("id") is None for a in answers), "a malformed line gets -32700")
    check(any(a.get("id") == 3 and a.get("result") == {} for a in answers), "the server answers after the malformed line")
    check(process.returncode == 0, "the server exits 0 when stdin closes")


def recorded_in_the_history() -> None:
    """Every tools/call the server answered is a row of the history, with this client's name (skillhost trace)."""
    out = subprocess.run([SKILLHOST, "trace", "--json", "--limit", "1000", *GLOBAL], check=True, capture_output=True,
                         env={**os.environ, **ENV}).stdout
    calls = json.loads(out)
    ours = [c for c in calls if c.get("front_end") == "mcp" and c.get("client") == CLIENT_NAME]
    check(len(ours) >= 5, f"trace shows {len(ours)} tools/call rows of client {CLIENT_NAME}")
    check(any(c["skill"] == "fixture.echo" and c["status"] == "succeeded" for c in ours), "a succeeded call is recorded")
    check(any(c["status"] in ("failed", "refused") for c in ours), "failed and refused calls are recorded too")
    raw = [c for c in calls if c.get("front_end") == "mcp" and c.get("client") == "raw"]
    check(len(raw) == 1 and raw[0]["error"]["kind"] == "invalidArguments", "the raw client's one call is recorded as its own")


if __name__ == "__main__":
    anyio.run(with_sdk_client)
    with_raw_lines()
    recorded_in_the_history()
    print("all checks passed", flush=True)
