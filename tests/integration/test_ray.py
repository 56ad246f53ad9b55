"""`--backend ray` on a real Ray cluster on this machine: a head and a second node (ray.cluster_utils),
driven through `python -m hbs` as a user runs it.  The reference is always the local backend: the
same command with the same secrets gives the same guesses, game for game.  Clusters started with
`ray start`, and a node lost mid-run, are in test_ray_start.py."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hbs.sandbox import confinement
from hbs.arena.replays import read, regrade

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ray]')")

ROOT = Path(__file__).resolve().parents[2]
BOTS = Path(__file__).parent / "bots"
ESCAPES = Path(__file__).parent / "escapes"
NODE = {"num_cpus": 1, "object_store_memory": 80 << 20}
pytestmark = pytest.mark.ray


@pytest.fixture(scope="module")
def cluster():
    from ray.cluster_utils import Cluster

    # a lost node is noticed in about a second (the default is a quarter of a minute)
    fast = {"health_check_period_ms": 250, "health_check_failure_threshold": 4, "health_check_initial_delay_ms": 0}
    made = Cluster(initialize_head=True, head_node_args={**NODE, "include_dashboard": False, "_system_config": fast})
    made.add_node(**NODE)
    made.wait_for_nodes()
    yield made
    made.shutdown()


def hbs(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hbs", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT)


def games(path: Path) -> list[tuple]:
    """A replay file without its timings: secret, status and every step."""
    return [(r.secret, r.status, [(s.guess, s.black, s.white, s.remaining, s.phase) for s in r.steps])
            for r in read(path)]


def lines(path: Path) -> int:
    return path.read_text().count("\n") if path.exists() else 0


def both(cluster, tmp_path: Path, *args: str, suffix: str = "") -> tuple[Path, Path, dict]:
    """The same command on the local backend and on the cluster: both replays, the cluster's --json."""
    common = [*args, "--json", "--scoreboard", str(tmp_path / "board")]
    local, on_ray = tmp_path / f"local{suffix}", tmp_path / f"ray{suffix}"
    here = hbs(*common, "--replays", str(local))
    there = hbs(*common, "--replays", str(on_ray), "--backend", "ray", "--address", cluster.address)
    assert here.returncode == 0, here.stderr
    assert there.returncode == 0, there.stderr
    return local, on_ray, json.loads(there.stdout)


@pytest.mark.slow  # a tournament's runs on Ray: each bot as test_bots_on_the_cluster_are_confined plays one, 12 s
def test_a_tournament_on_the_cluster_plays_the_local_games(cluster, tmp_path):
    """Python bots and a program bot (built on the nodes), local and on two nodes: the same games."""
    local, on_ray, out = both(cluster, tmp_path, "tournament", "--bot", "knuth", "--bot", "random", "--bot", "first_c")
    for bot in ("knuth", "random", "first_c"):
        played = games(on_ray / f"{bot}.jsonl")
        assert len(played) == 1296 and played == games(local / f"{bot}.jsonl"), bot
        assert all(not regrade(r) for r in read(on_ray / f"{bot}.jsonl"))
    knuth = {s["bot"]: s for s in out["standings"]}["knuth"]
    assert knuth["total_guesses"] == 5801  # Knuth (1976)


# the same sharing on the local backend is tests/arena/test_tournament_schedule.py: 15 s
@pytest.mark.slow
def test_a_tournaments_runs_share_the_runners_and_each_plays_its_games_alone(cluster):
    """On two nodes as locally: every run was under way (its bot set up in the first runner let go)
    before the first bot's first game ended, not once the bots before it were over; and every game
    is the one the bot plays alone on this machine."""
    from hbs.arena import runs, tournament
    from hbs.arena.ray_cluster import RayCluster
    from hbs.arena.request import Request
    from hbs.contract.bot import locate

    bots, mechanism = ["knuth", "first", "random"], confinement.choose("auto")[0]
    events: list[tuple[str, str]] = []
    with RayCluster(cluster.address, [locate(b) for b in bots], None) as on:
        assert on.capacity() == 2
        options = runs.RunOptions(workers=2, confinement=mechanism, cluster=on)
        entries = tournament.play(bots, Request(game="mastermind", limit=150), options, None,
                                  on_record=lambda r: events.append(("game", r.bot)),
                                  on_start=lambda bot, done, todo: events.append(("start", bot)))
    assert [e.bot for e in entries] == bots and all(e.outcome is not None for e in entries)
    assert sum(kind == "game" for kind, _ in events) == 3 * 150
    first_game = events.index(("game", "knuth"))
    assert {bot for kind, bot in events[:first_game] if kind == "start"} == set(bots)
    local = runs.RunOptions(workers=2, confinement=mechanism)
    for entry in entries:
        alone = runs.execute(Request(bot=entry.bot, game="mastermind", limit=150), local)
        assert [[s.guess for s in r.steps] for r in entry.outcome.records] == \
               [[s.guess for s in r.steps] for r in alone.records]


@pytest.mark.slow  # Ctrl-C on a Ray tournament: 4 s; the shared code (tournament.play) is interrupted locally too
def test_an_interrupted_tournament_on_the_cluster_keeps_its_finished_games(cluster, tmp_path):
    """Ctrl-C: every run ends after the batches in play, exit 130, each replay holding whole games;
    the slow bot's run, cut short, is not recorded on the scoreboard."""
    folder, board = tmp_path / "r", tmp_path / "board"
    proc = subprocess.Popen([sys.executable, "-m", "hbs", "tournament", "--bot", "slowfirst", "--bot", "first",
                             "--bots-dir", str(BOTS), "--replays", str(folder), "--scoreboard", str(board),
                             "--backend", "ray", "--address", cluster.address],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while lines(folder / "slowfirst.jsonl") < 5 and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "tournament interrupted" in err
    slow = list(read(folder / "slowfirst.jsonl"))
    assert 5 <= len(slow) < 1296 and all(r.status == "solved" and not regrade(r) for r in slow)
    assert not list(board.glob("runs/slowfirst*"))


def test_a_tournament_on_the_cluster_skips_bots_that_fail_their_setup(cluster, tmp_path, first_compiled):
    """A bot whose setup raises and one whose setup overruns hold their runners until they fail; the
    others play on the runners let go, and the tournament lists the two as skipped (exit 0)."""
    bots = tmp_path / "bots"
    bots.mkdir()
    for name in ("badsetup.py", "slowsetup.py"):
        shutil.copy(Path(__file__).parent / "breaches" / name, bots / name)
    (tmp_path / "codes.txt").write_text("1234\n3456\n6611\n")
    done = hbs("tournament", "--bot", "badsetup", "--bot", "slowsetup", "--bot", "first", "--bots-dir", str(bots),
               "--secrets", str(tmp_path / "codes.txt"), "--setup-timeout", "3", "--scoreboard",
               str(tmp_path / "runs"), "--backend", "ray", "--address", cluster.address, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [(row["bot"], row["games"]) for row in result["standings"]] == [("first", 3)]
    why = {e["bot"]: e["why"] for e in result["skipped"]}
    assert "no setup for you" in why["badsetup"] and "within 3" in why["slowsetup"], why


@pytest.mark.slow  # the phrase bot on Ray: the same runners as the code games, 6 s more
def test_phrases_on_the_cluster(cluster, tmp_path):
    local, on_ray, out = both(cluster, tmp_path, "run", "--bot", "entropy", "--phrases", "data/pass.txt",
                              "--limit", "16", suffix=".jsonl")
    assert len(games(on_ray)) == 16 == out["games"]
    assert games(on_ray) == games(local)


def test_a_cluster_without_authentication_ignores_a_token_at_hand(cluster, tmp_path):
    """A token file does not switch token mode on for a cluster that asks for none (a client in token
    mode could not run its actors there)."""
    home = tmp_path / "home"
    (home / ".ray").mkdir(parents=True)
    (home / ".ray" / "auth_token").write_text("a" * 32)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH")}
    common = ["--bot", "knuth", "--limit", "20", "--scoreboard", str(tmp_path / "board")]
    on_ray = subprocess.run([sys.executable, "-m", "hbs", "run", *common, "--backend", "ray", "--address",
                             cluster.address, "--replays", str(tmp_path / "ray.jsonl")],
                            capture_output=True, text=True, env={**env, "HOME": str(home)}, cwd=ROOT, timeout=300)
    assert on_ray.returncode == 0, on_ray.stderr
    assert hbs("run", *common, "--replays", str(tmp_path / "local.jsonl")).returncode == 0
    assert games(tmp_path / "ray.jsonl") == games(tmp_path / "local.jsonl")


@pytest.mark.slow  # resume on one backend of a run killed on the other: 9 s
def test_a_killed_driver_resumes_across_backends(cluster, tmp_path):
    """Killed on Ray, resumed locally; killed locally, resumed on Ray: the games of one full local run."""
    common = ["-m", "hbs", "run", "--bot", "slowfirst", "--bots-dir", str(BOTS), "--limit", "60",
              "--scoreboard", str(tmp_path / "board")]
    reference = tmp_path / "reference.jsonl"
    assert hbs(*common[2:], "--replays", str(reference)).returncode == 0
    on_ray = ["--backend", "ray", "--address", cluster.address]
    for first, then in ((on_ray, []), ([], on_ray)):
        replays = tmp_path / f"r{len(first)}.jsonl"
        proc = subprocess.Popen([sys.executable, *common, "--replays", str(replays), *first],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        deadline = time.monotonic() + 120
        while lines(replays) < 10 and time.monotonic() < deadline:
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        kept = lines(replays)
        assert 10 <= kept < 60
        done = hbs(*common[2:], "--replays", str(replays), "--resume", *then)
        assert done.returncode == 0, done.stderr
        assert games(replays) == games(reference)


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    unreachable = hbs("run", "--bot", "first", "--backend", "ray", "--address", "127.0.0.1:9", timeout=60)
    assert unreachable.returncode == 2
    assert unreachable.stderr.strip().splitlines() == [unreachable.stderr.strip()]
    assert "cannot reach the Ray cluster at 127.0.0.1:9" in unreachable.stderr
    no_ray = subprocess.run([sys.executable, "-c", "import sys; sys.modules['ray'] = None; sys.argv[0] = 'hbs'; "
                             "from hbs.__main__ import main; main()", "run", "--bot", "first", "--backend", "ray"],
                            capture_output=True, text=True, timeout=60)
    assert no_ray.returncode == 2 and no_ray.stderr.strip() == \
        "hbs: error: the Ray backend needs Ray: pip install 'hbs[ray]'"
    wrong = hbs("run", "--bot", "first", "--backend", "spark")
    assert wrong.returncode == 2 and "--backend must be one of local, ray" in wrong.stderr


def test_a_bot_missing_on_the_nodes_is_one_line_and_exit_2(cluster, tmp_path):
    """An installed bot (an entry point) that the driver sees and the nodes do not: its package is
    on the driver's import path only.  Bot files travel with the job; installed bots do not."""
    info = tmp_path / "site" / "ghost_bot-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ghost-bot\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[hbs.bots]\nghost = ghost_bot:Ghost\n")
    done = subprocess.run([sys.executable, "-m", "hbs", "run", "--bot", "ghost", "--backend", "ray", "--address",
                           cluster.address, "--limit", "3", "--replays", str(tmp_path / "r.jsonl"),
                           "--scoreboard", str(tmp_path / "board")],
                          capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(tmp_path / "site")})
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "ghost" in done.stderr and "not installed" in done.stderr


@pytest.mark.skipif(not confinement.available(), reason="no confinement on this machine (bubblewrap or Landlock)")
def test_bots_on_the_cluster_are_confined(cluster, tmp_path):
    """The escape bot against its runner on a node: the runner's memory (which holds the secrets of
    its games), the cluster's own port (a bot that reached it could start tasks anywhere), the
    runner's life.  The controls, --unconfined, get out."""
    bots = tmp_path / "bots"
    bots.mkdir()
    shutil.copy(ESCAPES / "escape.py", bots / "escape.py")
    port = cluster.address.rpartition(":")[2]

    def play(attack: str, secrets: str, *how: str) -> tuple[subprocess.CompletedProcess, list]:
        codes, replays = tmp_path / f"{attack}.txt", tmp_path / f"{attack}{len(how)}.jsonl"
        codes.write_text(secrets)
        done = hbs("run", "--bot", "escape", "--bots-dir", str(bots), "--secrets", str(codes), "--json",
                   "--replays", str(replays), "--scoreboard", str(tmp_path / "board"), "--backend", "ray",
                   "--address", cluster.address, "--bot-option", f"attack={attack}", "--bot-option", f"port={port}",
                   *how)
        return done, list(read(replays)) if replays.exists() else []

    done, records = play("memory,connect,signal", "3456\n1234\n")
    assert done.returncode == 0, done.stderr
    assert [r.status for r in records] == ["solved", "solved"], [r.error for r in records]
    assert [r.steps[0].guess for r in records] == ["1111", "1111"]  # played on, fair
    control, records = play("memory,connect", "3456\n1234\n", "--unconfined")
    assert all("read 4096 bytes of the runner's memory; connected to 127.0.0.1:" in r.error for r in records)
    control, records = play("signal", "3456\n", "--unconfined")  # it kills its runner, three times: an error
    assert control.returncode == 0, control.stderr
    assert [r.status for r in records] == ["error"] and "runner was lost 3 times" in records[0].error
