"""The local backend's workers on a bot's compile cache: through `python -m hbs run`, confined."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hbs.core.games import mastermind
from hbs.sandbox import confinement

ROOT = Path(__file__).resolve().parents[2]

TIMED = '''
import os
import time
from hbs import Bot


class Timed(Bot):
    """First fitting code; its set-up takes a second, noted in its compile cache (start and end)."""

    games = {"mastermind"}

    def setup(self, game):
        self.game = game
        folder = os.environ["NUMBA_CACHE_DIR"]
        with open(os.path.join(folder, f"setup-{time.time_ns()}"), "w") as note:  # (pids repeat: a namespace each)
            note.write(f"{time.time()}\\n")
            time.sleep(1)
            note.write(f"{time.time()}\\n")

    def guess(self, history):
        time.sleep(0.05)  # (games long enough that the second worker gets some)
        return self.game.fitting(history)[0]
'''


@pytest.mark.skipif(not confinement.available(), reason="no confinement on this machine (bubblewrap or Landlock)")
def test_on_an_empty_compile_cache_the_first_worker_sets_up_alone(tmp_path):
    """Each worker's set-up would compile the same kernels: on the bot's first run (its cache
    empty) the other workers start once the first is set up and has played its game; once the cache
    holds anything (here the notes), all set up at once, the control."""
    bots, cache = tmp_path / "bots", tmp_path / "cache"
    bots.mkdir()
    (bots / "timed.py").write_text(TIMED)
    codes = tmp_path / "codes.txt"
    codes.write_text("\n".join(mastermind().codes()[::54]) + "\n")  # 24 codes

    def setups() -> list[tuple[float, float]]:
        done = subprocess.run([sys.executable, "-m", "hbs", "run", "--bot", "timed", "--bots-dir", str(bots),
                               "--secrets", str(codes), "--workers", "2", "--no-replays", "--json",
                               "--scoreboard", str(tmp_path / "board")], capture_output=True, text=True, timeout=120,
                              cwd=ROOT, env=dict(os.environ, HBS_CACHE=str(cache)))
        assert done.returncode == 0, done.stderr
        notes = sorted(cache.rglob("setup-*"))
        spans = sorted(tuple(map(float, note.read_text().split())) for note in notes)
        for note in notes:
            note.rename(note.with_name("seen-" + note.name))
        return spans

    first, second = setups()
    assert second[0] >= first[1]  # one after the other
    first, second = setups()
    assert second[0] < first[1]  # at once
