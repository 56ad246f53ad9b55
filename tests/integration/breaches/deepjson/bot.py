"""A program bot whose every guess is a JSON array nested 200,000 deep: the runner's parser must
not fall over (it is the bot's game that ends, as an error)."""
import json
import sys

for line in sys.stdin:
    if json.loads(line)["op"] == "setup":
        print(json.dumps({"ok": True}), flush=True)
    else:
        sys.stdout.write("[" * 200_000 + "\n")
        sys.stdout.flush()
