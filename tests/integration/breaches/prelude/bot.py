"""A program bot (line protocol) in Python that imports json, as most would: from its own folder,
where the shadowing json.py waits.  Plays first-consistent."""
import itertools
import json
import sys


def grade(g, s):
    black = sum(a == b for a, b in zip(g, s))
    return black, sum(min(g.count(c), s.count(c)) for c in set(g)) - black


codes = []
for line in sys.stdin:
    request = json.loads(line)
    if request["op"] == "setup":
        game = request["game"]
        codes = ["".join(c) for c in itertools.product(game["alphabet"][: game["colors"]], repeat=game["pegs"])]
        reply = {"ok": True}
    else:
        fits = [c for c in codes if all(grade(g, c) == (b, w) and g != c for g, b, w in request["history"])]
        reply = {"guess": fits[0]}
    print(json.dumps(reply), flush=True)
