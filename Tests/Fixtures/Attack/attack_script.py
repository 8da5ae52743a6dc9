#!/usr/bin/env python3
"""The attacker's suite as a skill's script (issue #30): the attempts of attack_attempts.c, loaded with ctypes
from libattack_attempts.so beside this file, made from inside a script's sandbox exactly as the attack plugins
make them from inside a worker. Reads the world (the same JSON the attack plugins take) on stdin and prints
{"results": [{"attempt", "threat", "escaped", "errno", "detail"}]} for every attempt but the resource ones."""

import ctypes
import json
import os
import sys

world = json.loads(sys.stdin.read() or "{}")
library = ctypes.CDLL(os.path.join(os.path.dirname(os.path.abspath(__file__)), "libattack_attempts.so"))


class Args(ctypes.Structure):
    _fields_ = [
        ("home", ctypes.c_char_p), ("other_data", ctypes.c_char_p), ("tmp_file", ctypes.c_char_p),
        ("data_dir", ctypes.c_char_p), ("port", ctypes.c_int), ("udp_port", ctypes.c_int),
        ("unix_path", ctypes.c_char_p), ("abstract_name", ctypes.c_char_p), ("secret", ctypes.c_char_p),
        ("victim", ctypes.c_int), ("targets", ctypes.c_int * 16), ("target_count", ctypes.c_int),
        ("inject", ctypes.c_char_p), ("bound", ctypes.c_long),
    ]


class Outcome(ctypes.Structure):
    _fields_ = [("escaped", ctypes.c_int), ("code", ctypes.c_int), ("detail", ctypes.c_char * 400)]


Function = ctypes.CFUNCTYPE(None, ctypes.POINTER(Args), ctypes.POINTER(Outcome))


class Attempt(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("threat", ctypes.c_char_p), ("run", Function), ("alone", ctypes.c_int)]


library.attack_at.restype = ctypes.POINTER(Attempt)
library.attack_at.argtypes = [ctypes.c_size_t]
count = ctypes.c_size_t.in_dll(library, "attack_attempt_count").value


def text(key):
    value = world.get(key)
    return value.encode() if isinstance(value, str) else None


args = Args()
for key in ("home", "other_data", "tmp_file", "unix_path", "abstract_name", "secret", "inject"):
    setattr(args, key, text(key))
args.data_dir = os.getcwd().encode()  # the workspace: the one folder a script may write, as a worker's data folder
args.port = int(world.get("port", 0))
args.udp_port = int(world.get("udp_port", 0))
args.victim = int(world.get("victim", 0))
targets = [int(t) for t in world.get("targets", [])][:16]
for index, target in enumerate(targets):
    args.targets[index] = target
args.target_count = len(targets)
args.bound = int(world.get("bound", 0))

results = []
for index in range(count):
    attempt = library.attack_at(index).contents
    if attempt.alone:
        continue
    outcome = Outcome()
    attempt.run(ctypes.byref(args), ctypes.byref(outcome))
    results.append({
        "attempt": attempt.name.decode(), "threat": attempt.threat.decode(), "escaped": bool(outcome.escaped),
        "errno": outcome.code, "detail": outcome.detail.decode(errors="replace"),
    })
print(json.dumps({"results": results}))
