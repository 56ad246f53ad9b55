"""`--backend ray --address` on clusters started the way docs/cluster.md tells users to: real
`ray start --head` and `ray start --address` processes on loopback, with a token (Ray's default
since 2.59 where one exists); a node stopped mid-run.  The reference is the local backend: the same
guesses, game for game.  A cluster without authentication reached with a token at hand is in
test_ray.py (on its in-process cluster)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import signal
import sys
import time
from pathlib import Path

import pytest

from hbs.arena.replays import read

pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ray]')")
# slow: real `ray start` clusters, two of them, and a node lost: 33-38 s of the default run's ~10
# minutes on two cores (`python -m pytest -m slow` runs it); test_ray.py keeps a cluster in the default run
pytestmark = [pytest.mark.ray, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
BOTS = Path(__file__).parent / "bots"
RAY = shutil.which("ray") or str(Path(sys.executable).with_name("ray"))
# a lost node is noticed in about a second (the default is half a minute)
FAST = '{"health_check_period_ms": 250, "health_check_failure_threshold": 4, "health_check_initial_delay_ms": 0}'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def environment(home: Path, **extra: str) -> dict:
    """A user's environment with its own home (its own ~/.ray) and nothing of Ray's auth exported."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH")}
    return {**env, "HOME": str(home), **extra}


def ray(env: dict, *args: str) -> None:
    done = subprocess.run([RAY, *args], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def hbs(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hbs", *args], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=300)


def moves(path: Path) -> list:
    return [(r.secret, r.status, [s.guess for s in r.steps]) for r in read(path)]


def kill_started_with(home: str) -> int:
    """SIGKILL every process whose environment has ``HOME=home``: what the test's `ray start`
    started (every Ray process inherits it; some rename themselves, none changes it), and nothing
    else on the machine (`ray stop` would stop every Ray here, and takes seconds)."""
    mark, killed = f"HOME={home}".encode() + b"\0", 0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            if mark in (proc / "environ").read_bytes():
                os.kill(int(proc.name), signal.SIGKILL)
                killed += 1
        except (OSError, ProcessLookupError):
            continue
    return killed


@pytest.fixture
def started(tmp_path):
    """Start ``ray start`` clusters with the given environment (its own HOME); every process they
    started is killed after."""
    homes = []

    def start(env: dict, workers: int = 0, node_env: dict | None = None) -> tuple[str, list[int]]:
        homes.append(env["HOME"])
        port = free_port()
        ray(env, "start", "--head", "--port", str(port), "--node-ip-address", "127.0.0.1", "--num-cpus", "1",
            "--include-dashboard", "false", "--system-config", FAST)
        managers = [free_port() for _ in range(workers)]
        for manager in managers:
            ray(node_env or env, "start", "--address", f"127.0.0.1:{port}", "--node-ip-address", "127.0.0.1",
                "--num-cpus", "1", "--node-manager-port", str(manager))
        return f"127.0.0.1:{port}", managers

    yield start
    for home in homes:
        kill_started_with(home)


def test_a_cluster_with_its_token_is_reached_with_nothing_exported_and_survives_a_lost_node(tmp_path, started):
    home = tmp_path / "home"
    home.mkdir()
    env = environment(home)
    ray(env, "get-auth-token", "--generate")  # ~/.ray/auth_token: `ray start` then asks every client for it
    # another node joins with the token too (`ray start --address` sends it only in token mode)
    address, (second,) = started(env, workers=1, node_env={**env, "RAY_AUTH_MODE": "token"})
    replays, board = tmp_path / "ray.jsonl", str(tmp_path / "board")
    run = subprocess.Popen([sys.executable, "-m", "hbs", "run", "--bot", "slowfirst", "--bots-dir", str(BOTS),
                            "--limit", "60", "--replays", str(replays), "--json", "--backend", "ray", "--address",
                            address, "--scoreboard", board], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, cwd=ROOT, env=env)
    deadline = time.monotonic() + 120
    while (not replays.exists() or replays.read_text().count("\n") < 10) and run.poll() is None \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    # the second node stops: its raylet is killed, and its workers with it
    killed = subprocess.run(["pkill", "-9", "-f", f"node_manager_port={second}"], check=False)
    stopped_at = replays.read_text().count("\n")
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0, err
    assert killed.returncode == 0 and 10 <= stopped_at < 60  # a node went while games were played
    reference = tmp_path / "local.jsonl"  # slowfirst plays as first does, only slower
    assert hbs(env, "run", "--bot", "first", "--limit", "60", "--replays", str(reference),
               "--scoreboard", board).returncode == 0
    assert moves(replays) == moves(reference)  # every game once, played to its end, as locally

    elsewhere = tmp_path / "elsewhere"  # a machine without the token
    elsewhere.mkdir()
    tick = time.monotonic()
    refused = hbs(environment(elsewhere), "run", "--bot", "knuth", "--limit", "5", "--backend", "ray", "--address",
                  address, "--no-replays", "--scoreboard", board)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert "asks for its token" in refused.stderr and time.monotonic() - tick < 15  # not Ray's 20 s of retries
