"""Hostile bots against the confinement, through `python -m hbs` as a user runs it.

Each way out of the sandbox has a bot (tests/integration/escapes/escape.py, option ``attack``); each
test plays it confined, under every mechanism this machine has, and checks that it got nothing, that
its games ended with the right status and the run went on, and that no process outlived the run.
Each has a control: the same bot with ``--unconfined`` does get out, so the test can fail (run
beside the first mechanism only: unconfined, the mechanism makes no difference).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hbs.sandbox import confinement
from hbs.arena.replays import read, regrade

ESCAPES = Path(__file__).parent / "escapes"
MECHANISMS = confinement.available()
pytestmark = pytest.mark.skipif(not MECHANISMS, reason="no confinement on this machine (bubblewrap or Landlock)")


@pytest.fixture(params=MECHANISMS)
def mechanism(request) -> str:
    return request.param


class Run:
    """One `hbs run` of the escape bot in a real process."""

    def __init__(self, tmp_path: Path, attack: str, how: list[str], secrets=("3456", "1234"), bot="escape",
                 **options):
        self.bots = tmp_path / "bots"
        self.bots.mkdir(exist_ok=True)
        if bot == "escape":
            shutil.copy(ESCAPES / "escape.py", self.bots / "escape.py")
        else:  # the same attacks by a program that speaks the line protocol
            folder = self.bots / bot
            folder.mkdir(exist_ok=True)
            shutil.copy(ESCAPES / "escape_prog.py", folder / "bot.py")
            (folder / "bot.toml").write_text(
                f'command = ["{sys.executable}", "bot.py"]\ngames = ["mastermind"]\n'
                'options = {attack = "", target = "", port = "0"}\n')
        self.board = tmp_path / "board"
        codes = tmp_path / "codes.txt"
        codes.write_text("\n".join(secrets) + "\n")
        self.replays = tmp_path / "replays.jsonl"
        self.replays.unlink(missing_ok=True)
        args = [sys.executable, "-m", "hbs", "run", "--bot", bot, "--bots-dir", str(self.bots),
                "--secrets", str(codes), "--replays", str(self.replays), "--workers", "1", "--json",
                "--scoreboard", str(self.board), "--bot-option", f"attack={attack}", *how]
        for key, value in options.items():
            args += ["--bot-option", f"{key}={value}"]
        self.mark = f"HBS_TEST_RUN={tmp_path.name}"
        env = dict(os.environ, HBS_TEST_RUN=tmp_path.name)
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.out, self.err = proc.communicate(timeout=300)
        self.pid, self.returncode = proc.pid, proc.returncode
        self.records = list(read(self.replays)) if self.replays.exists() else []

    def ok(self) -> "Run":
        assert self.returncode == 0, self.err
        assert len(self.records) == len(json.loads(self.out).get("histogram", {}) and self.records)
        return self

    @property
    def statuses(self) -> list[str]:
        return [r.status for r in self.records]

    def errors(self) -> str:
        return "\n".join(r.error or "" for r in self.records)

    def survivors(self, argv0: str | None = None) -> list[int]:
        """Processes left by the run: its workers (by environment) or children (by ``argv0``)."""
        deadline, found = time.monotonic() + 10, []
        while time.monotonic() < deadline:
            found = []
            for proc in Path("/proc").glob("[0-9]*"):
                try:
                    environ = (proc / "environ").read_bytes()
                    cmdline = (proc / "cmdline").read_bytes()
                except OSError:
                    continue
                if (self.mark.encode() in environ or f"HBS_RUNNER={self.pid}\0".encode() in environ
                        or (argv0 and cmdline.startswith(argv0.encode()))):
                    found.append(int(proc.name))
            if not found:
                break
            time.sleep(0.2)
        return found


def confined(mechanism: str) -> list[str]:
    return ["--sandbox", mechanism]


def controlled(mechanism: str) -> bool:
    """Whether a mechanism's test runs the control: the attack unconfined does not depend on the
    mechanism, so it runs once, beside the first."""
    return mechanism == MECHANISMS[0]


UNCONFINED = ["--unconfined"]


def test_the_secrets_file_through_proc(tmp_path, mechanism):
    run = Run(tmp_path, "secrets", confined(mechanism))
    assert run.returncode == 0, run.err
    assert run.statuses == ["solved", "solved"] and all(not regrade(r) for r in run.records)
    assert [r.steps[0].guess for r in run.records] == ["1111", "1111"]  # played fair, first consistent
    assert run.survivors() == []
    if controlled(mechanism):
        control = Run(tmp_path, "secrets", UNCONFINED)
        # read the file: guesses its lines that fit, in order (3456 at once; 1234 after 3456)
        assert [r.guesses for r in control.records] == [1, 2]


def test_the_runners_memory(tmp_path, mechanism):
    run = Run(tmp_path, "memory", confined(mechanism))
    assert run.returncode == 0 and run.statuses == ["solved", "solved"], run.errors()
    assert run.survivors() == []
    if controlled(mechanism):
        control = Run(tmp_path, "memory", UNCONFINED)
        assert "ESCAPED: read 4096 bytes of the runner's memory" in control.errors()


def test_writing_into_the_scoreboard_and_the_bot_folders(tmp_path, mechanism):
    runs = tmp_path / "board" / "runs"
    runs.mkdir(parents=True)
    targets = [runs, tmp_path / "bots", Path(confinement.__file__).parent]
    forged = [t / "forged-by-a-bot.json" for t in targets]
    run = Run(tmp_path, "write", confined(mechanism), target=",".join(map(str, targets[:2])))
    assert run.returncode == 0 and run.statuses == ["solved", "solved"], run.errors()
    assert not any(f.exists() for f in forged)
    assert [p.name for p in runs.iterdir()] == ["escape__mastermind-4x6__" + json.load(open(next(runs.iterdir())))["secrets"] + ".json"]
    if controlled(mechanism):
        control = Run(tmp_path, "write", UNCONFINED, target=",".join(map(str, targets[:2])))
        assert "ESCAPED" in control.errors() and all(f.exists() for f in forged[:2])


def test_the_network(tmp_path, mechanism):
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    heard: list[bytes] = []
    stop = threading.Event()

    def listen():
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            with conn:
                heard.append(conn.recv(100))

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    try:
        run = Run(tmp_path, "connect", confined(mechanism), port=port)
        assert run.returncode == 0 and run.statuses == ["solved", "solved"], run.errors()
        assert heard == []
        if controlled(mechanism):
            control = Run(tmp_path, "connect", UNCONFINED, port=port)
            time.sleep(0.5)
            assert "ESCAPED" in control.errors() and b"hello from a bot" in heard
    finally:
        stop.set()
        thread.join()
        listener.close()


def test_signalling_the_runner(tmp_path, mechanism):
    run = Run(tmp_path, "signal", confined(mechanism))
    assert run.returncode == 0 and run.statuses == ["solved", "solved"], run.errors()
    assert run.survivors() == []
    if controlled(mechanism):
        control = Run(tmp_path, "signal", UNCONFINED)
        assert control.returncode == -signal.SIGTERM  # the bot killed the run
        assert control.survivors() == []


def test_a_fork_storm_is_bounded(tmp_path, mechanism):
    argv0 = f"hbs-sleeper-{tmp_path.name}"
    run = Run(tmp_path, "fork", confined(mechanism), secrets=("3456",), target=argv0)
    assert run.returncode == 0 and run.statuses == ["error"], run.errors()
    assert "BLOCKED" in run.errors() and "after 0 children" in run.errors()
    assert run.survivors(argv0) == []
    if controlled(mechanism):
        control = Run(tmp_path, "fork", UNCONFINED, secrets=("3456",), target=argv0)
        assert "ESCAPED: started 500 children" in control.errors()
        assert control.survivors(argv0) == []  # even unconfined, the worker's process group is killed


def test_a_thread_storm_is_bounded(tmp_path, mechanism):
    if confinement.pids_root() is None and (os.getuid() == 0 or mechanism != "bwrap"):
        pytest.skip("no cap on threads here: no pids cgroup to make, and RLIMIT_NPROC binds only bwrap as non-root")
    run = Run(tmp_path, "threads", confined(mechanism), secrets=("3456",))
    assert run.returncode == 0 and run.statuses == ["error"], run.errors()
    assert "BLOCKED" in run.errors() and "threads" in run.errors()
    started = int(re.search(r"after (\d+) threads$", run.errors()).group(1))
    assert started < confinement.THREADS  # the worker's own threads count too
    assert run.survivors() == []
    if controlled(mechanism):
        control = Run(tmp_path, "threads", UNCONFINED, secrets=("3456",))
        assert "ESCAPED: started 2000 threads" in control.errors()


def test_a_disk_filler_stops_at_the_file_size_cap(tmp_path, mechanism):
    run = Run(tmp_path, "fsize", confined(mechanism), secrets=("3456",))
    assert run.returncode == 0 and run.statuses == ["error"], run.errors()
    assert f"after {confinement.FILE_MB} MB" in run.errors()
    if controlled(mechanism):
        control = Run(tmp_path, "fsize", UNCONFINED, secrets=("3456",))
        assert "ESCAPED: wrote 256 MB" in control.errors()  # over the cap: the attack works unconfined


def test_a_descriptor_leak_stops_at_the_cap(tmp_path, mechanism):
    run = Run(tmp_path, "fds", confined(mechanism), secrets=("3456", "1234"))
    assert run.returncode == 0 and run.statuses == ["error", "error"], run.errors()
    assert "Too many open files" in run.errors()
    if controlled(mechanism):
        control = Run(tmp_path, "fds", UNCONFINED, secrets=("3456",))
        assert "ESCAPED: opened 5000 descriptors" in control.errors()


def test_the_web_board_lists_its_bots_confined(tmp_path, routed):
    """`hbs board --html` reads each bot's docstring: in a confined worker, as `hbs bots` does."""
    from hbs.core.record import GameRecord, Step
    from hbs.arena.summary import summarize
    from hbs.sandbox.workers import Budgets
    from hbs.arena.runs import RunOutcome
    from hbs.board.scoreboard import record_run

    bots = tmp_path / "bots"
    bots.mkdir()
    shutil.copy(ESCAPES / "listed.py", bots / "listed.py")
    written = bots / "written-at-import"
    records = [GameRecord("listed", "mastermind-4x6", "1122", "solved", [Step("1122", 4, 0)])]
    record_run(tmp_path / "sb", RunOutcome(
        bot="listed", bot_hash="0" * 16, game="mastermind-4x6", secrets=["1122"], secret_set="0" * 16,
        records=records, summary=summarize("listed", "mastermind-4x6", records, 0.1), budgets=Budgets(), played=1))

    def site(*how: str) -> str:
        folder = tmp_path / f"site{len(how)}"
        done = subprocess.run([sys.executable, "-m", "hbs", "board", "--html", str(folder), "--scoreboard",
                               str(tmp_path / "sb"), "--bots-dir", str(bots), *how],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return (folder / "index.html").read_text()

    assert "A bot whose module does something when imported." in site("--sandbox", routed)
    assert not written.exists()
    site("--unconfined")  # the control: the module's code does run
    assert written.exists()


def test_listing_bots_runs_no_bot_code_unconfined(tmp_path, routed):
    bots = tmp_path / "bots"
    bots.mkdir()
    shutil.copy(ESCAPES / "listed.py", bots / "listed.py")
    written = bots / "written-at-import"

    def listing(*how: str) -> dict:
        done = subprocess.run([sys.executable, "-m", "hbs", "bots", "--json", "--bots-dir", str(bots), *how],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return {row["name"]: row for row in json.loads(done.stdout)}

    rows = listing("--sandbox", routed)
    assert rows["listed"]["summary"] == "A bot whose module does something when imported."
    assert rows["knuth"]["error"] is None
    assert not written.exists()
    rows = listing("--unconfined")  # the control: the module's code does run, in a worker
    assert written.exists() and rows["listed"]["error"] is None


@pytest.mark.parametrize("attack", ["secrets", "memory", "write", "connect", "signal", "fork"])
def test_a_program_bot_is_confined_the_same_way(tmp_path, mechanism, attack):
    listener = socket.create_server(("127.0.0.1", 0))
    argv0 = f"hbs-sleeper-{tmp_path.name}"
    board = tmp_path / "board"  # the scoreboard: a folder of the runner's the bot must not write
    board.mkdir()
    target = argv0 if attack == "fork" else str(board)
    options = dict(bot="escape_prog", target=target, port=listener.getsockname()[1])
    try:
        run = Run(tmp_path, attack, confined(mechanism), **options)
        assert run.returncode == 0, run.err
        assert run.statuses == ["solved", "solved"] and "ESCAPED" not in run.errors(), run.errors()
        assert run.survivors(argv0) == [] and not (board / "forged-by-a-program.json").exists()
        if controlled(mechanism):
            control = Run(tmp_path, attack, UNCONFINED, **options)
            if attack == "signal":
                assert control.returncode == -signal.SIGTERM
            else:
                assert "ESCAPED" in control.errors(), control.err
            assert control.survivors(argv0) == []
    finally:
        listener.close()


def test_a_tournament_confines_its_bots_too(tmp_path, routed):
    bots = tmp_path / "bots"
    bots.mkdir()
    shutil.copy(ESCAPES / "escape.py", bots / "escape.py")  # attack=secrets: cheats with the secrets file
    codes = tmp_path / "codes.txt"
    codes.write_text("3456\n1234\n")

    def tournament(*how: str) -> list[list[str]]:
        replays = tmp_path / f"r{len(how)}{how[-1] if how else ''}"
        done = subprocess.run([sys.executable, "-m", "hbs", "tournament", "--bot", "escape", "--bot", "first",
                               "--bots-dir", str(bots), "--secrets", str(codes), "--replays", str(replays),
                               "--scoreboard", str(tmp_path / "board"), "--json", *how],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return [[s.guess for s in r.steps] for r in read(replays / "escape.jsonl")]

    assert [g[0] for g in tournament("--sandbox", routed)] == ["1111", "1111"]  # played fair
    assert [len(g) for g in tournament("--unconfined")] == [1, 2]  # the control: it cheats


def writer(tmp_path: Path, command: list[str]):
    """``hbs COMMAND`` on the escape bot that writes into a folder (``attack=write``): the folder, and
    a function that runs the command with more arguments."""
    bots = tmp_path / "bots"
    bots.mkdir()
    shutil.copy(ESCAPES / "escape.py", bots / "escape.py")
    target = tmp_path / "board"
    target.mkdir()

    def run(*how: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "hbs", *command, "--bots-dir", str(bots), "--json",
                               "--bot-option", "attack=write", "--bot-option", f"target={target}", *how],
                              capture_output=True, text=True, timeout=300)

    return target, run


def test_hbs_check_runs_the_bot_confined(tmp_path, routed):
    target, check = writer(tmp_path, ["check", "escape"])
    done = check("--sandbox", routed)
    assert done.returncode == 0, done.stderr  # its write is refused, and it plays on: it passes
    assert list(target.iterdir()) == []
    control = check("--unconfined")
    assert (target / "forged-by-a-bot.json").exists() and control.returncode == 2 and "ESCAPED" in control.stderr


def test_hbs_tree_drives_its_bot_confined(tmp_path, routed):
    target, tree = writer(tmp_path, ["tree", "--bot", "escape"])
    done = tree("--sandbox", routed)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == 7471 and list(target.iterdir()) == []  # first-consistent, fair
    control = tree("--unconfined")
    assert (target / "forged-by-a-bot.json").exists() and control.returncode != 0  # the write got through
