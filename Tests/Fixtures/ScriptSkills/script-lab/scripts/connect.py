#!/usr/bin/env python3
"""Connects to 127.0.0.1:PORT; prints "connected" or "blocked: <why>"."""
import socket, sys
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=3).close()
    print("connected")
except OSError as error:
    print(f"blocked: {error}")
