"""A build that forks three children holding 300 MB each: within a 600 MB cap a process, over it
all together. Exits 0 only if every child held its memory to the end."""
import os
import time

children = []
for _ in range(3):
    pid = os.fork()
    if pid == 0:
        block = bytearray(300 << 20)
        for k in range(0, len(block), 4096):
            block[k] = 1
        time.sleep(2)
        os._exit(0)
    children.append(pid)
codes = [os.waitpid(pid, 0)[1] for pid in children]
raise SystemExit(0 if not any(codes) else 1)
