"""Runs one turn of the OpenAI Agents SDK (PyPI `openai-agents`) with `MCPServerStdio(skillhost mcp)` against a
scripted OpenAI-compatible server (Chat Completions), plain or with convert_schemas_to_strict=True.

Run by Tests/SkillAgentTests/AgentsSDKTests.swift:
    python agents_sdk_mcp.py SKILLHOST ROOT BASE_URL plain|strict
Prints the tools the SDK offered the model ("tool: NAME strict=…") and the final output ("final: …").
"""

import asyncio
import os
import sys

from agents import Agent, Runner, set_default_openai_api, set_default_openai_client, set_tracing_disabled
from agents.mcp import MCPServerStdio
from openai import AsyncOpenAI

SKILLHOST, ROOT, BASE_URL, MODE = sys.argv[1:5]
GLOBAL = ["--plugins", f"{ROOT}/plugins", "--registry", f"{ROOT}/config/skill_registry.json", "--cache", f"{ROOT}/cache",
          "--skills", f"{ROOT}/skills"]


async def main() -> None:
    set_tracing_disabled(True)
    set_default_openai_client(AsyncOpenAI(base_url=BASE_URL, api_key="test-key", max_retries=0), use_for_tracing=False)
    set_default_openai_api("chat_completions")
    env = {**os.environ, "XDG_DATA_HOME": f"{ROOT}/xdg-data", "SKILLHOST_STATE": f"{ROOT}/state"}
    params = {"command": SKILLHOST, "args": ["mcp", *GLOBAL], "env": env}
    async with MCPServerStdio(params=params, cache_tools_list=True,
                              client_session_timeout_seconds=30) as server:
        tools = await server.list_tools()
        print(f"listed: {len(tools)} tools", flush=True)
        agent = Agent(name="assistant", instructions="Use the tools.", mcp_servers=[server], model="gpt-4o-mini",
                      mcp_config={"convert_schemas_to_strict": MODE == "strict"})
        result = await Runner.run(agent, "When am I free on 2036-12-01?", max_turns=3)
        print(f"final: {result.final_output}", flush=True)


asyncio.run(main())
