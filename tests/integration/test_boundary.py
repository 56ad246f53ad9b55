"""The trust boundary's classes of attack, each by a hostile bot in real processes (`python -m hbs`).

- code a bot ships that would run before its confinement (a module that shadows the standard
  library, in a program's folder and its build);
- links that lead out of a bot's files;
- privileges a runner started as root would hand down (capabilities, mode and times of other
  files, the kernel log, unix sockets by path and by abstract name);
- what outlives a game (the compile cache, a guess's phase);
- text a bot supplies reaching a terminal or a file (escape sequences, names);
- a bot whose setup fails or overruns stopping a tournament.

Each confined run is checked under every mechanism this machine has; each attack has a control that
shows it working where nothing stops it (``--unconfined``), or shows that the bot really tried.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from hbs.sandbox import caches, confinement, trees
from hbs.arena.replays import read

BREACHES = Path(__file__).parent / "breaches"
MECHANISMS = confinement.available()
pytestmark = pytest.mark.skipif(not MECHANISMS, reason="no confinement on this machine (bubblewrap or Landlock)")
CODES = ("3456", "1234")


@pytest.fixture(params=MECHANISMS)
def mechanism(request) -> str:
    return request.param


def hbs(*args: str, env: dict | None = None, user: list[str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*(user or []), sys.executable, "-m", "hbs", *args], capture_output=True, text=True,
                          timeout=300, env={**os.environ, **(env or {})})


def arena(tmp_path: Path, *bots: str) -> Path:
    """``tmp_path/bots`` holding copies of these bots of ``breaches/``, and ``tmp_path/codes.txt``."""
    folder = tmp_path / "bots"
    folder.mkdir(exist_ok=True)
    for bot in bots:
        source = BREACHES / bot
        if source.is_dir():
            shutil.copytree(source, folder / bot, dirs_exist_ok=True)
        else:
            shutil.copy(source, folder / source.name)
    (tmp_path / "codes.txt").write_text("\n".join(CODES) + "\n")
    (tmp_path / "board").mkdir(exist_ok=True)
    return folder


def play(tmp_path: Path, bot: str, *how: str, env: dict | None = None, user=None) -> tuple[subprocess.CompletedProcess, list]:
    """``hbs run`` of ``bot`` on the two codes; the process and the replay's records."""
    replays = tmp_path / f"replays-{len(list(tmp_path.glob('replays-*')))}.jsonl"
    done = hbs("run", "--bot", bot, "--bots-dir", str(tmp_path / "bots"), "--secrets", str(tmp_path / "codes.txt"),
               "--replays", str(replays), "--workers", "1", "--scoreboard", str(tmp_path / "runs"), *how,
               env=env, user=user)
    return done, list(read(replays)) if replays.exists() else []


def errors(records) -> str:
    return "\n".join(r.error or "" for r in records)


# -- nothing a bot ships runs before its confinement ------------------------------------------------

def prelude(tmp_path: Path) -> Path:
    """The program bot ``prelude``: a bot.py that imports json, a json.py beside it that writes into
    ``board/``, and a build that imports it too."""
    arena(tmp_path, "prelude")
    (tmp_path / "bots" / "prelude" / "bot.toml").write_text(
        f'command = ["{sys.executable}", "bot.py"]\n'
        f'build = ["{sys.executable}", "-c", "import json"]\n'
        'games = ["mastermind"]\n')
    return tmp_path / "board"


def test_a_module_in_a_programs_folder_runs_only_confined(tmp_path, mechanism):
    board = prelude(tmp_path)
    done, records = play(tmp_path, "prelude", "--sandbox", mechanism)
    assert done.returncode == 0, done.stderr
    assert [r.status for r in records] == ["solved", "solved"]
    assert list(board.iterdir()) == []  # imported by the build and the program, confined: no note
    control, records = play(tmp_path, "prelude", "--unconfined")
    assert control.returncode == 0, control.stderr
    notes = list(board.iterdir())
    assert len(notes) >= 2  # the build's and the program's
    assert all("\nSeccomp:\t0" in note.read_text() for note in notes)


def test_the_launcher_imports_nothing_from_the_bots_folder(tmp_path):
    """What a confined process holds when it becomes the program: an inventory taken by a program in
    sh (inventory.sh), as the json.py would have seen it had it run."""
    board = prelude(tmp_path)
    folder = tmp_path / "bots" / "prelude"
    (folder / "bot.toml").write_text('command = ["/bin/sh", "inventory.sh"]\ngames = ["mastermind"]\n')
    for mechanism in MECHANISMS:
        done, records = play(tmp_path, "prelude", "--sandbox", mechanism)
        assert [r.status for r in records] == ["error", "error"], done.stderr
        status = records[0].log
        assert "Seccomp:\t2" in status and "NoNewPrivs:\t1" in status, status
        assert all(f"{cap}:\t0000000000000000" in status for cap in ("CapEff", "CapPrm", "CapBnd", "CapAmb"))
        assert list(board.iterdir()) == []


# -- no link leads out -------------------------------------------------------------------------------

def test_a_data_folder_that_links_out_is_refused(tmp_path, mechanism):
    bots = arena(tmp_path, "linked.py")
    (bots / "linked").symlink_to("..")  # bots/linked/codes.txt is the secrets file
    done, records = play(tmp_path, "linked", "--sandbox", mechanism)
    assert done.returncode == 2 and records == []
    assert done.stderr.count("\n") == 1 and "its folder is a link" in done.stderr, done.stderr
    unconfined, _ = play(tmp_path, "linked", "--unconfined")
    assert unconfined.returncode == 2  # refused whatever the confinement: it is the bot's input
    (bots / "linked").unlink()
    (bots / "linked").mkdir()
    (bots / "linked" / "inner").symlink_to("../../codes.txt")  # a link inside, out of the folder
    done, _ = play(tmp_path, "linked", "--sandbox", mechanism)
    assert done.returncode == 2 and "inner is a link out of its folder" in done.stderr, done.stderr
    (bots / "linked" / "inner").unlink()
    shutil.copy(tmp_path / "codes.txt", bots / "linked" / "codes.txt")  # the control: what it is granted, it reads
    done, records = play(tmp_path, "linked", "--sandbox", mechanism)
    assert done.returncode == 0 and [r.guesses for r in records] == [1, 2], done.stderr


def test_the_ray_stage_copies_no_link_out(tmp_path):
    from hbs.contract.bot import BotSource
    from hbs.arena.ray_cluster import Stage
    from hbs.errors import InputError

    bots = arena(tmp_path, "linked.py")
    folder = bots / "linked"
    folder.mkdir()
    (folder / "data.txt").write_text("mine\n")
    (folder / "same").symlink_to("data.txt")  # inside: kept, as a link
    stage = Stage.make([BotSource("linked", str(bots / "linked.py"))], None)
    copied = stage.folder / "bots" / "linked" / "same"
    assert copied.is_symlink() and os.readlink(copied) == "data.txt"
    shutil.rmtree(stage.folder)
    (folder / "secrets").symlink_to(tmp_path / "codes.txt")
    stage = Stage.make([BotSource("linked", str(bots / "linked.py"))], None)
    assert list((stage.folder / "bots").iterdir()) == []  # left out: its run is refused with the reason
    shutil.rmtree(stage.folder)
    (folder / "secrets").unlink()
    os.mkfifo(folder / "pipe")  # a FIFO: copying it would block, or fail the whole stage
    stage = Stage.make([BotSource("linked", str(bots / "linked.py"))], None)
    assert list((stage.folder / "bots").iterdir()) == []
    shutil.rmtree(stage.folder)
    with pytest.raises(InputError, match="pipe is not a file or a folder"):
        BotSource("linked", str(bots / "linked.py")).check()


# -- a root runner hands down no privilege -----------------------------------------------------------

class Listeners:
    """A unix socket by path and one by abstract name, each recording what it hears."""

    made = 0

    def __init__(self, folder: Path):
        Listeners.made += 1
        self.path = str(folder / f"host-{Listeners.made}.sock")
        self.name = f"hbs-test-{os.getpid()}-{Listeners.made}"
        self.heard: list[bytes] = []
        self.servers = [socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) for _ in range(2)]
        self.datagrams = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.servers[0].bind(self.path)
        self.servers[1].bind("\0" + self.name)
        self.datagrams.bind("\0" + self.name + "-dgram")
        for server in self.servers:
            server.listen()
            threading.Thread(target=self._accept, args=(server,), daemon=True).start()
        threading.Thread(target=self._receive, daemon=True).start()

    def _accept(self, server) -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                self.heard.append(conn.recv(100))

    def _receive(self) -> None:
        while True:
            try:
                self.heard.append(self.datagrams.recv(100))
            except OSError:
                return

    def close(self) -> None:
        for s in (*self.servers, self.datagrams):
            s.close()


def privileged(tmp_path: Path, *how: str, user=None, env=None):
    bots = arena(tmp_path, "inventory.py")
    victim = bots / "victim.py"
    victim.write_text('"""Another bot\'s file."""\n')
    os.chmod(victim, 0o644)
    listeners = Listeners(tmp_path)
    try:
        options = dict(attack="caps,chmod,syslog,fifo,hostname,unix,abstract,datagram,tcp,sysctl,prlimit,ipc,devshm",
                       target=str(victim),
                       unix=listeners.path, abstract=listeners.name)
        args = [arg for key, value in options.items() for arg in ("--bot-option", f"{key}={value}")]
        done, records = play(tmp_path, "inventory", *args, *how, user=user, env=env)
    finally:
        listeners.close()
    return done, records, victim, listeners.heard


def test_a_root_runner_gives_the_worker_no_privilege(tmp_path, mechanism):
    hostname = socket.gethostname()
    done, records, victim, heard = privileged(tmp_path, "--sandbox", mechanism)
    assert done.returncode == 0, done.stderr
    assert [r.status for r in records] == ["solved", "solved"], errors(records)
    assert oct(victim.stat().st_mode & 0o777) == "0o644" and victim.stat().st_mtime > 0
    assert heard == [] and socket.gethostname() == hostname
    if os.getuid() != 0:
        return
    control, records, victim, heard = privileged(tmp_path, "--unconfined")
    found = errors(records)
    assert "holds capabilities" in found and "changed the mode and times" in found, found
    assert "connected to " + str(tmp_path / "host-") in found and "sent a datagram" in found
    assert "core_pattern" in found and "set a resource limit" in found and "shared memory" in found
    assert "/dev/shm" in found
    assert b"hello from a bot" in heard
    victim.chmod(0o644)


def as_nobody() -> list[str]:
    """``setpriv`` to uid/gid 65534 without capabilities; skips where that user cannot run this Python."""
    if os.getuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("needs root and setpriv to run hbs as an unprivileged user")
    user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all"]
    # from a shell already running as that user, as the runner will start its workers (setpriv itself
    # may still reach an interpreter in a folder private to root)
    probe = subprocess.run([*user, "/bin/sh", "-c", 'exec "$0" -c "import hbs"', sys.executable], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"uid 65534 cannot run {sys.executable} and hbs here (its folders are private)")
    return user


def test_an_unprivileged_runner_too(mechanism):
    user = as_nobody()
    base = Path(tempfile.mkdtemp(prefix="hbs-nobody-", dir="/tmp"))  # pytest's own folder is root's only
    try:
        base.chmod(0o777)
        done, records, victim, heard = privileged(base, "--sandbox", mechanism, user=user,
                                                  env={"HBS_CACHE": str(base / "cache"), "HOME": str(base)})
        assert done.returncode == 0 and [r.status for r in records] == ["solved", "solved"], \
            done.stderr + errors(records)
        assert heard == [] and oct(victim.stat().st_mode & 0o777) == "0o644"
    finally:
        shutil.rmtree(base, ignore_errors=True)


# -- what outlives a game is bounded -----------------------------------------------------------------

def test_a_compile_cache_over_its_cap_is_emptied(tmp_path, mechanism):
    arena(tmp_path, "hoarder.py")
    cache = tmp_path / "cache"
    done, records = play(tmp_path, "hoarder", "--sandbox", mechanism, env={"HBS_CACHE": str(cache)})
    assert done.returncode == 0 and [r.status for r in records] == ["solved", "solved"], done.stderr
    note = next(line for line in done.stderr.splitlines() if "compile cache" in line)
    assert note.startswith("hbs: note: bot 'hoarder'") and "emptied" in note
    assert int(note.split(" files")[0].rsplit(" ", 1)[1]) > caches.MAX_FILES  # it did write them (counted to the cap)
    folder = next((cache / "numba").iterdir())
    assert caches.usage(folder)[1] <= caches.MAX_FILES // 10


def test_a_huge_phase_is_cut(tmp_path, mechanism):
    arena(tmp_path, "hoarder.py")
    done, records = play(tmp_path, "hoarder", "--sandbox", mechanism, "--bot-option", "what=phase")
    assert done.returncode == 0 and [r.status for r in records] == ["solved", "solved"], done.stderr
    phase = records[0].steps[0].phase
    assert phase.startswith("x" * 50) and phase.endswith("(cut from 1,000,000 characters)") and len(phase) <= 100
    assert max(p.stat().st_size for p in tmp_path.glob("replays-*")) < 20_000  # a million a guess, sent


# -- a bot's text is escaped wherever it is shown -----------------------------------------------------

def test_escape_sequences_never_reach_the_terminal(tmp_path, mechanism):
    arena(tmp_path, "hoarder.py")
    done, records = play(tmp_path, "hoarder", "--sandbox", mechanism, "--bot-option", "what=forge", "--verbose")
    assert done.returncode == 0, done.stderr
    assert [r.status for r in records] == ["error", "error"]
    for text in (done.stdout, done.stderr):
        assert not any(c in text for c in "\x1b\r\x07\u202e"), repr(text)
    assert "\\x1b[2K\\r\\x1b[1A  -> solved in 1 guesses\\n" in done.stdout  # shown, escaped
    assert not any(line.lstrip().startswith("-> solved in 1") for line in done.stdout.splitlines())
    assert "\x1b" in (BREACHES / "hoarder.py").read_text().encode().decode("unicode_escape")  # it did send them


def test_a_bot_file_name_must_be_an_identifier(tmp_path):
    bots = arena(tmp_path, "linked.py")
    shutil.copy(bots / "linked.py", bots / "a\n| forged | row |.py")
    done = hbs("bots", "--bots-dir", str(bots), "--json", "--unconfined")
    assert done.returncode == 0, done.stderr
    rows = {row["name"]: row for row in json.loads(done.stdout)}
    assert "letters, digits and _" in rows["a\n| forged | row |"]["error"]
    plain = hbs("bots", "--bots-dir", str(bots), "--unconfined", env={"COLUMNS": "200"})
    assert not any(line.lstrip().startswith("| forged") for line in plain.stdout.splitlines())
    assert "a\\n| forged | row |" in plain.stdout  # the name, on one line
    done = hbs("run", "--bot", "a\n| forged | row |", "--bots-dir", str(bots), "--limit", "1")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr


# -- what a bot hands the runner cannot take it down ------------------------------------------------

def program(tmp_path: Path, name: str, toml: str) -> Path:
    folder = arena(tmp_path) / name
    folder.mkdir()
    (folder / "bot.toml").write_text(toml)
    return folder


def test_a_reply_nested_too_deep_ends_the_game_not_the_run(tmp_path, mechanism):
    arena(tmp_path, "deepjson")
    (tmp_path / "bots" / "deepjson" / "bot.toml").write_text(
        f'command = ["{sys.executable}", "bot.py"]\ngames = ["mastermind"]\n')
    done = hbs("tournament", "--bot", "deepjson", "--bot", "first", "--bots-dir", str(tmp_path / "bots"),
               "--secrets", str(tmp_path / "codes.txt"), "--replays", str(tmp_path / "r"), "--sandbox", mechanism,
               "--scoreboard", str(tmp_path / "runs"), "--json")
    assert done.returncode == 0, done.stderr
    assert [r.status for r in read(tmp_path / "r" / "deepjson.jsonl")] == ["error", "error"]
    assert {row["bot"] for row in json.loads(done.stdout)["standings"]} == {"deepjson", "first"}


def test_a_manifest_nested_too_deep_is_a_load_error(tmp_path):
    program(tmp_path, "deeptoml", 'command = ["./x"]\ngames = ["mastermind"]\noptions = {a = ' + "[" * 5000
            + "]" * 5000 + "}\n")
    done = hbs("bots", "--bots-dir", str(tmp_path / "bots"), "--json", "--unconfined")
    assert done.returncode == 0, done.stderr
    assert "not TOML" in {row["name"]: row for row in json.loads(done.stdout)}["deeptoml"]["error"]


def test_a_loop_of_links_is_refused(tmp_path):
    bots = arena(tmp_path, "linked.py")
    (bots / "linked").mkdir()
    (bots / "linked" / "a").symlink_to("b")
    (bots / "linked" / "b").symlink_to("a")
    done, _ = play(tmp_path, "linked", "--unconfined")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "is a link out of its folder" in done.stderr


def test_a_build_that_leaves_a_fifo_for_its_manifest_is_refused(tmp_path, mechanism):
    program(tmp_path, "fifo", 'command = ["/bin/true"]\ngames = ["mastermind"]\n'
            'build = ["/bin/sh", "-c", "rm -f bot.toml && mkfifo bot.toml"]\n')
    done, _ = play(tmp_path, "fifo", "--sandbox", mechanism)  # hung for ever, reading the FIFO
    assert done.returncode == 2 and "bot.toml is not a file or a folder" in done.stderr, done.stderr


def test_what_a_failed_build_says_is_escaped(tmp_path, mechanism):
    program(tmp_path, "esc", 'command = ["./prog"]\ngames = ["mastermind"]\n'
            "build = [\"/bin/sh\", \"-c\", \"printf 'x\\\\033]0;TITLE\\\\007\\\\033[2J\\\\342\\\\200\\\\256' >&2; exit 1\"]\n")
    check = hbs("check", "esc", "--bots-dir", str(tmp_path / "bots"), "--sandbox", mechanism)
    tournament = hbs("tournament", "--bot", "esc", "--bot", "first", "--bots-dir", str(tmp_path / "bots"),
                     "--secrets", str(tmp_path / "codes.txt"), "--sandbox", mechanism,
                     "--scoreboard", str(tmp_path / "runs"))
    assert check.returncode == 2 and tournament.returncode == 0, tournament.stderr
    for text in (check.stdout, check.stderr, tournament.stdout, tournament.stderr):
        assert not any(c in text for c in "\x1b\x07\u202e"), repr(text)
    assert "\\x1b]0;TITLE\\x07" in check.stderr  # shown, escaped


def test_a_build_that_writes_without_end_costs_the_runner_no_memory(tmp_path, mechanism):
    """300 MB on the build's stdout, of which the runner keeps the last lines; the runner's peak is
    measured by a Python of its own that waits for it."""
    program(tmp_path, "flood", 'command = ["/bin/true"]\ngames = ["mastermind"]\n'
            'build = ["/bin/sh", "-c", "head -c 300000000 /dev/zero | tr \'\\\\0\' A; printf \'\\\\377 bad\\\\n\' >&2; exit 3"]\n')
    args = [sys.executable, "-m", "hbs", "run", "--bot", "flood", "--bots-dir", str(tmp_path / "bots"), "--secrets",
            str(tmp_path / "codes.txt"), "--sandbox", mechanism, "--scoreboard", str(tmp_path / "runs")]
    measure = ("import resource, subprocess, sys; done = subprocess.run(sys.argv[1:], capture_output=True, text=True);"
               "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); print(done.stderr)")
    done = subprocess.run([sys.executable, "-c", measure, *args], capture_output=True, text=True, timeout=300)
    code, peak_kb = map(int, done.stdout.split("\n")[0].split())
    assert code == 2 and "failed (exit 3): \ufffd bad" in done.stdout, done.stdout  # one line, bad UTF-8 replaced
    assert peak_kb < 200_000, peak_kb  # held the 300 MB before


def test_a_builds_processes_share_one_memory_cap(tmp_path, routed):
    if confinement.cgroup_root("memory") is None:
        pytest.skip("no memory cgroup to make here (hbs makes them as root): a build's cap is a process's own")
    arena(tmp_path, "forkmem")
    (tmp_path / "bots" / "forkmem" / "bot.toml").write_text(
        f'command = ["/bin/true"]\ngames = ["mastermind"]\nbuild = ["{sys.executable}", "build.py"]\n')
    done, _ = play(tmp_path, "forkmem", "--sandbox", routed, "--memory", "600")
    assert done.returncode == 2 and "the build" in done.stderr and "failed" in done.stderr, done.stderr
    control, _ = play(tmp_path, "forkmem", "--unconfined", "--memory", "600")
    assert "the build" not in control.stderr  # 900 MB in all, 300 MB a process: built


def test_a_forged_listing_reply_spoils_only_its_own_row(tmp_path):
    bots = arena(tmp_path)
    (bots / "forger.py").write_text(
        '"""Writes its own describe reply, with the wrong types, from its module\'s code."""\n'
        "import json, os, stat\n"
        "for fd in range(3, 20):\n"
        "    try:\n        st = os.fstat(fd)\n    except OSError:\n        continue\n"
        "    if stat.S_ISFIFO(st.st_mode) and os.fstat(1).st_ino != st.st_ino:\n"
        "        os.write(fd, (json.dumps({'summary': 'x', 'games': 5, 'untyped': {'a': 1}}) + '\\n').encode())\n"
        "        os._exit(0)\n")
    done = hbs("bots", "--bots-dir", str(bots), "--json", "--sandbox", MECHANISMS[0])
    assert done.returncode == 0, done.stderr
    rows = {row["name"]: row for row in json.loads(done.stdout)}
    assert rows["forger"]["games"] == [] and rows["forger"]["untyped"] == [] and rows["knuth"]["error"] is None


def test_folders_nested_a_thousand_deep_take_down_nothing(tmp_path, mechanism):
    """In the compile cache, in the scratch folder, in the bot's own folder by its build: Python's own
    walk and removal recurse once a level."""
    bots = arena(tmp_path)
    for name, where in (("deepcache", 'os.environ["NUMBA_CACHE_DIR"]'), ("deepscratch", "os.getcwd()")):
        (bots / f"{name}.py").write_text(
            f'"""Nests folders 1100 deep."""\nimport os\nfrom hbs.strategies import ConsistentBot\n\n\n'
            f"class Deep(ConsistentBot):\n    def setup(self, game):\n        super().setup(game)\n"
            f"        os.chdir({where})\n        for _ in range(1100):\n            os.makedirs('a', exist_ok=True)\n"
            f"            os.chdir('a')\n        os.chdir('/')\n\n    def choose(self, history, subset):\n"
            f"        return self.space.text(subset[0])\n")
    program(tmp_path, "deepbuild", 'command = ["/bin/true"]\ngames = ["mastermind"]\n'
            'build = ["/bin/sh", "-c", "for i in $(seq 1100); do mkdir a && cd a || exit 1; done"]\n')
    cache = tmp_path / "cache"
    try:
        done = hbs("tournament", "--bot", "deepcache", "--bot", "deepscratch", "--bot", "deepbuild", "--bot", "first",
                   "--bots-dir", str(bots), "--secrets", str(tmp_path / "codes.txt"), "--sandbox", mechanism,
                   "--scoreboard", str(tmp_path / "runs"), "--json", env={"HBS_CACHE": str(cache)})
    finally:  # pytest's own clean-up of old temporary folders recurses too
        trees.remove(bots / "deepbuild")
        trees.remove(cache)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert {row["bot"] for row in result["standings"]} == {"deepcache", "deepscratch", "first"}
    assert "nested over 64 levels" in {e["bot"]: e["why"] for e in result["skipped"]}["deepbuild"]
    assert "deepcache" in done.stderr and "emptied" in done.stderr  # its cache was over the cap


# -- a tournament survives its bots --------------------------------------------------------------------

def test_a_tournament_skips_bots_that_fail_their_setup(tmp_path, routed, first_compiled):
    bots = arena(tmp_path, "badsetup.py", "slowsetup.py", "linked.py")
    (bots / "linked").symlink_to("..")
    done = hbs("tournament", "--bot", "badsetup", "--bot", "slowsetup", "--bot", "linked", "--bot", "first",
               "--bots-dir", str(bots), "--secrets", str(tmp_path / "codes.txt"), "--setup-timeout", "3",
               "--scoreboard", str(tmp_path / "runs"), "--sandbox", routed, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [row["bot"] for row in result["standings"]] == ["first"]
    why = {e["bot"]: e["why"] for e in result["skipped"]}
    assert set(why) == {"badsetup", "slowsetup", "linked"}
    assert "no setup for you" in why["badsetup"] and "within 3" in why["slowsetup"], why
    assert "its folder is a link" in why["linked"]
