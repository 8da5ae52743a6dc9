"""Drives `skillhost mcp` with the official Python `mcp` 2.x `Client` in each of its modes, over Streamable HTTP
and over stdio: "legacy" (initialize), "auto" (server/discover, then fall back) and pinned to "2026-07-28"
(stateless: every request carries its version in _meta).

Run by Tests/SkillMCPTests/PythonHTTPClientTests.swift:
    python mcp_client_modes.py SKILLHOST ROOT URL WRITE_TOKEN READ_TOKEN
ROOT holds plugins/ (the fixture plugin), skills/, config/ (the registry with both tokens), cache/. The server at
URL was started by the test (`skillhost mcp --http`). Prints one line per check ("ok: ...") and exits 1 at the
first failed check ("FAILED: ...").
"""

import os
import subprocess
import sys
from typing import Any

import anyio
import httpx2
import mcp_types as types

from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from peer_checks import check, text_of

SKILLHOST, ROOT, URL, WRITE_TOKEN, READ_TOKEN = sys.argv[1:6]
GLOBAL = ["--plugins", f"{ROOT}/plugins", "--registry", f"{ROOT}/config/skill_registry.json", "--cache", f"{ROOT}/cache",
          "--skills", f"{ROOT}/skills"]
ENV = {**os.environ, "XDG_DATA_HOME": f"{ROOT}/xdg-data", "SKILLHOST_STATE": f"{ROOT}/state"}
MODES = ["legacy", "auto", "2026-07-28"]




answers: list[str] = []


async def approve(context: Any, params: Any) -> types.ElicitResult:
    """The user's answer to an approval question: yes, recorded."""
    answers.append(getattr(params, "message", ""))
    return types.ElicitResult(action="accept", content={"approve": True})


async def decline(context: Any, params: Any) -> types.ElicitResult:
    answers.append(getattr(params, "message", ""))
    return types.ElicitResult(action="decline")


def http_server(token: str) -> Any:
    return streamable_http_client(URL, http_client=httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30))


def stdio_server() -> StdioServerParameters:
    return StdioServerParameters(command=SKILLHOST, args=["mcp", *GLOBAL], env=ENV)


async def one_mode(transport: str, mode: str, tool_sets: dict[str, set[str]]) -> None:
    where = f"{transport}, mode {mode}"
    server = http_server(WRITE_TOKEN) if transport == "http" else stdio_server()
    answers.clear()
    async with Client(server, mode=mode, elicitation_callback=approve) as client:
        version = client.session.protocol_version
        expected = "2025-11-25" if mode == "legacy" else "2026-07-28"
        check(version == expected, f"{where}: protocol {version}")
        tools = (await client.list_tools()).tools
        names = [tool.name for tool in tools]
        check(names == sorted(names, key=lambda name: next(t for t in tools if t.name == name).meta["dev.skillhost/skillId"]),
              f"{where}: tools/list in the stable order of skill ids")
        tool_sets[where] = set(names)
        check({"fixture_echo", "fixture_note"} <= set(names), f"{where}: portable tool names ({len(names)} tools)")
        echoed = await client.call_tool("fixture_echo", {"text": "hi", "count": 2})
        check(not echoed.is_error and (echoed.structured_content or {}).get("echo") == {"text": "hi", "count": 2},
              f"{where}: tools/call fixture_echo: {text_of(echoed)[:60]}")
        by_id = await client.call_tool("fixture.echo", {"text": "by id"})
        check(not by_id.is_error, f"{where}: tools/call by the skill id resolves too")
        bad = await client.call_tool("fixture_echo", {"count": -1})
        check(bad.is_error is True and "/count" in text_of(bad), f"{where}: bad arguments give isError: {text_of(bad)[:80]}")
        note = await client.call_tool("fixture_note", {"text": "approved?"})
        if mode == "legacy":
            # An initialize-era client is not asked: the registry decides (default: refuse, with the remedy).
            check(note.is_error is True and "--allow-writes" in text_of(note) and not answers,
                  f"{where}: a write skill is refused with its remedy: {text_of(note)[:80]}")
        else:
            check(len(answers) == 1 and "fixture.note" in answers[0], f"{where}: the write call asked the user (input_required): {answers[:1]}")
            check(not note.is_error, f"{where}: approved, the write skill ran: {text_of(note)[:80]}")
        try:
            await client.call_tool("fixture_nothing", {})
            check(False, f"{where}: an unknown tool is an error")
        except MCPError as error:
            check("unknown tool" in str(error), f"{where}: an unknown tool is a JSON-RPC error: {str(error)[:80]}")

    if mode != "legacy":
        answers.clear()
        server = http_server(WRITE_TOKEN) if transport == "http" else stdio_server()
        async with Client(server, mode=mode, elicitation_callback=decline) as client:
            declined = await client.call_tool("fixture_note", {"text": "no"})
            check(declined.is_error is True and "declined" in text_of(declined) and len(answers) == 1,
                  f"{where}: declined, nothing runs: {text_of(declined)[:80]}")
        server = http_server(WRITE_TOKEN) if transport == "http" else stdio_server()
        async with Client(server, mode=mode) as client:
            unasked = await client.call_tool("fixture_note", {"text": "nobody to ask"})
            check(unasked.is_error is True and "--allow-writes" in text_of(unasked),
                  f"{where}: a client that cannot answer is refused by the registry's default: {text_of(unasked)[:80]}")


async def listen_for_changes(transport: str) -> None:
    server = http_server(WRITE_TOKEN) if transport == "http" else stdio_server()
    async with Client(server, mode="2026-07-28") as client:
        async with client.listen(tools_list_changed=True) as subscription:
            check(subscription.honored is not None and subscription.honored.tools_list_changed is True,
                  f"{transport}: subscriptions/listen acknowledged")
            subprocess.run([SKILLHOST, "disable", "fixture.echo", *GLOBAL], check=True, env=ENV, stdout=subprocess.DEVNULL)
            try:
                with anyio.fail_after(5):
                    async for event in subscription:
                        check(type(event).__name__ == "ToolsListChanged", f"{transport}: a tools list change arrived on the stream")
                        break
            finally:
                subprocess.run([SKILLHOST, "enable", "fixture.echo", *GLOBAL], check=True, env=ENV, stdout=subprocess.DEVNULL)
        with anyio.fail_after(5):
            while "fixture_echo" not in {tool.name for tool in (await client.list_tools(cache_mode="bypass")).tools}:
                await anyio.sleep(0.1)
        check(True, f"{transport}: the tool is back after enable")


async def read_token_on_write_skill() -> None:
    async with Client(http_server(READ_TOKEN), mode="2026-07-28", elicitation_callback=approve) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        check("fixture_echo" in names, "http: a read token lists the tools")
        echoed = await client.call_tool("fixture_echo", {"text": "read"})
        check(not echoed.is_error, "http: a read token calls a read skill")
        try:
            result = await client.call_tool("fixture_note", {"text": "x"})
            check(False, f"http: a read token cannot call a write skill (got {text_of(result)[:80]})")
        except Exception as error:  # 403 insufficient_scope
            check("403" in str(error) or "scope" in str(error), f"http: a read token on a write skill is refused: {str(error)[:100]}")


async def main() -> None:
    tool_sets: dict[str, set[str]] = {}
    for transport in ["http", "stdio"]:
        for mode in MODES:
            await one_mode(transport, mode, tool_sets)
    check(len({frozenset(names) for names in tool_sets.values()}) == 1, "the same tool set in every mode on both transports")
    await listen_for_changes("http")
    await listen_for_changes("stdio")
    await read_token_on_write_skill()


if __name__ == "__main__":
    anyio.run(main)
    print("all checks passed", flush=True)
