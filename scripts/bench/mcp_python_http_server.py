"""The Python `mcp` package's own Streamable HTTP server (MCPServer on uvicorn, stateless, JSON answers) serving
the same trivial tool as scripts/bench/dispatch_echo.c under the name skillhost serves it (`bench_echo`: returns its
arguments). Used by scripts/bench-mcp.sh --http.

usage: python mcp_python_http_server.py PORT
"""

import logging
import sys
from typing import Any

from mcp.server.mcpserver import MCPServer

server = MCPServer("bench-python", log_level="WARNING")


@server.tool(name="bench_echo", description="Returns its arguments unchanged.")
def echo(text: str) -> dict[str, Any]:
    return {"text": text}


if __name__ == "__main__":
    logging.getLogger("uvicorn.access").disabled = True
    server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[1]), json_response=True, stateless_http=True)
