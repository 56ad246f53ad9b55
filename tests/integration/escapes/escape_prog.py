"""A bot that is a program (line protocol, no hbs import) trying one way out on each first guess.

Option ``attack``: secrets, memory, write, connect, signal, fork.  When the attack works it replies
``{"error": "ESCAPED: <evidence>"}``; when it is refused it plays first-consistent.
"""
import itertools
import json
import os
import signal
import socket
import subprocess
import sys


def grade(g, s):
    black = sum(a == b for a, b in zip(g, s))
    return black, sum(min(g.count(c), s.count(c)) for c in set(g)) - black


def attack(kind, options):
    pid = int(os.environ.get("HBS_RUNNER") or os.getppid())  # the runner (its parent when unconfined)
    if kind == "secrets":
        argv = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
        return "read " + argv[argv.index(b"--secrets") + 1].decode()
    if kind == "memory":
        with open(f"/proc/{pid}/mem", "rb") as mem:
            for line in open(f"/proc/{pid}/maps"):
                if line.split()[1].startswith("rw"):
                    mem.seek(int(line.split("-")[0], 16))
                    return f"read {len(mem.read(4096))} bytes of the runner's memory"
    if kind == "write":
        for folder in options["target"].split(","):
            open(os.path.join(folder, "forged-by-a-program.json"), "w").write("{}")
        return "wrote " + options["target"]
    if kind == "connect":
        socket.create_connection(("127.0.0.1", int(options["port"])), timeout=2).sendall(b"hello from a program")
        return "connected"
    if kind == "signal":
        os.kill(pid, signal.SIGTERM)
        return f"signalled {pid}"
    if kind == "fork":
        children = [subprocess.Popen([options["target"], "600"], executable="/bin/sleep") for _ in range(20)]
        return f"started {len(children)} children"
    return ""


codes, options = [], {}
for line in sys.stdin:
    request = json.loads(line)
    if request["op"] == "setup":
        game, options = request["game"], request["options"]
        codes = ["".join(c) for c in itertools.product(game["alphabet"][: game["colors"]], repeat=game["pegs"])]
        reply = {"ok": True}
    else:
        reply = None
        if not request["history"]:
            try:
                evidence = attack(options["attack"], options)
            except (OSError, ValueError):  # refused, or what it found was not the runner's
                evidence = ""
            if evidence:
                reply = {"error": "ESCAPED: " + evidence}
        if reply is None:
            fits = [c for c in codes if all(grade(g, c) == (b, w) and g != c for g, b, w in request["history"])]
            reply = {"guess": fits[0]}
    print(json.dumps(reply), flush=True)
