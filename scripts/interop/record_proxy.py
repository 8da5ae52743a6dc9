#!/usr/bin/env python3
"""A recording HTTP proxy for scripts/interop-llama.sh (standard library only).

Listens on 127.0.0.1:PORT, forwards every request to UPSTREAM, streams the answer back unchanged and
writes each exchange into OUT_DIR as NN.json ({"method", "path", "request", "status", "content_type"})
and NN.body (the response bytes as the server sent them); status 0 with an "error" when the server
closed without answering (the client then sees the same). Exits after --lifetime seconds.

--fill-tool-call-content (scripts/interop-anthropic.sh, between LiteLLM and llama-cpp-python): an assistant
message with `tool_calls` and no `content` gets `"content": ""` before it is forwarded, and the exchange's
NN.json says "rewritten": true (its "request" is the body as received). LiteLLM's Messages endpoint leaves
`content` out of such a message (the OpenAI format allows that), and llama-cpp-python's
chatml-function-calling template reads it with StrictUndefined: HTTP 500 "'dict object' has no attribute
'content'".
"""
import argparse
import http.client
import http.server
import json
import os
import sys
import threading
import urllib.parse


def fill_tool_call_content(body):
    """`body` with "content": "" in assistant messages that have tool_calls and no content (the same bytes
    when there is none to fill or the body is not such JSON)."""
    try:
        request = json.loads(body)
    except ValueError:
        return body
    messages = request.get("messages") if isinstance(request, dict) else None
    filled = False
    for message in messages if isinstance(messages, list) else []:
        if isinstance(message, dict) and message.get("role") == "assistant" and message.get("tool_calls") \
                and "content" not in message:
            message["content"] = ""
            filled = True
    return json.dumps(request).encode() if filled else body


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--upstream", required=True, help="e.g. http://127.0.0.1:8001")
    parser.add_argument("--out", required=True)
    parser.add_argument("--lifetime", type=float, default=1800)
    parser.add_argument("--fill-tool-call-content", action="store_true",
                        help='give assistant messages with tool_calls and no content "content": ""')
    args = parser.parse_args()
    upstream = urllib.parse.urlparse(args.upstream)
    os.makedirs(args.out, exist_ok=True)
    counter = {"next": 0}
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def do_GET(self):
            self.forward(b"")

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            self.forward(self.rfile.read(length))

        def forward(self, body):
            with lock:
                number = counter["next"]
                counter["next"] += 1
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection", "accept-encoding")}
            sent = fill_tool_call_content(body) if args.fill_tool_call_content else body
            self.rewritten = sent is not body
            if self.rewritten:
                headers = {k: v for k, v in headers.items() if k.lower() != "content-length"}
                headers["Content-Length"] = str(len(sent))
            connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=600)
            try:
                connection.request(self.command, self.path, body=sent, headers=headers)
                response = connection.getresponse()
            except (OSError, http.client.HTTPException) as error:
                # The server is gone (crashed): record that, and close without an answer as it did.
                self.record(number, body, 0, "", b"", error="%s: %s" % (type(error).__name__, error))
                self.close_connection = True
                return
            content_type = response.getheader("Content-Type", "")
            self.send_response(response.status)
            self.send_header("Content-Type", content_type)
            self.send_header("Connection", "close")
            self.end_headers()
            received = bytearray()
            while True:
                chunk = response.read1(4096) if hasattr(response, "read1") else response.read(4096)
                if not chunk:
                    break
                received += chunk
                try:
                    self.wfile.write(chunk)
                    self.wfile.flush()
                except BrokenPipeError:
                    break
            connection.close()
            self.close_connection = True
            self.record(number, body, response.status, content_type, bytes(received))

        def record(self, number, body, status, content_type, received, error=None):
            try:
                request = json.loads(body) if body else None
            except ValueError:
                request = body.decode("utf-8", "replace")
            meta = {"method": self.command, "path": self.path, "request": request, "status": status,
                    "content_type": content_type}
            if error:
                meta["error"] = error
            if getattr(self, "rewritten", False):
                meta["rewritten"] = True
            with open(os.path.join(args.out, "%02d.json" % number), "w") as handle:
                json.dump(meta, handle, indent=1, sort_keys=True)
                handle.write("\n")
            with open(os.path.join(args.out, "%02d.body" % number), "wb") as handle:
                handle.write(received)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    timer = threading.Timer(args.lifetime, server.shutdown)
    timer.daemon = True
    timer.start()
    print("recording proxy on 127.0.0.1:%d -> %s" % (args.port, args.upstream), file=sys.stderr, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
