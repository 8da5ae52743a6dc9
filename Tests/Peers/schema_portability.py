"""Feeds every bundled tool's inputSchema to llama-cpp-python's JSON-Schema-to-grammar converter (its pure-Python
module llama_cpp/llama_grammar.py, taken from the package's PyPI sdist: no C++ build) and to the OpenAI Agents
SDK's strict-mode conversion (every member required, no open objects).

Run by Tests/SkillMCPTests/PortableSchemaTests.swift with the agents peer's python:
    python schema_portability.py TOOLS_JSON LLAMA_GRAMMAR_PY
TOOLS_JSON is a tools/list result. Prints one JSON object: {"strict": {name: strict schema}, "failures": [...]}.
"""

import copy
import importlib.util
import json
import sys

from agents.strict_schema import ensure_strict_json_schema

tools = json.load(open(sys.argv[1]))["tools"]
spec = importlib.util.spec_from_file_location("llama_grammar", sys.argv[2])
llama_grammar = importlib.util.module_from_spec(spec)
spec.loader.exec_module(llama_grammar)

failures: list[str] = []
strict: dict[str, object] = {}
for tool in tools:
    name, schema = tool["name"], tool["inputSchema"]
    try:
        grammar = llama_grammar.json_schema_to_gbnf(json.dumps(schema))
        if "root ::=" not in grammar:
            failures.append(f"{name}: llama grammar has no root rule")
    except Exception as error:  # the converter raised: the schema is outside what it takes
        failures.append(f"{name}: llama-cpp-python's grammar converter failed: {type(error).__name__}: {error}")
    try:
        converted = ensure_strict_json_schema(copy.deepcopy(schema), _reject_open_objects=bool(schema.get("properties")))
        members = sorted(converted.get("properties", {}))
        if sorted(converted.get("required", [])) != members:
            failures.append(f"{name}: strict conversion left members optional")
        strict[name] = converted
    except Exception as error:
        failures.append(f"{name}: strict conversion failed: {type(error).__name__}: {error}")

print(json.dumps({"tools": len(tools), "strict": strict, "failures": failures}))
