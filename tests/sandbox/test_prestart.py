"""The entry point's early look at the command line: which runs start their workers at once."""

from hbs.__main__ import planned_confinement, planned_workers, plays_in_workers
from hbs.sandbox.confinement import available
from hbs.sandbox.workers import cores


def test_only_runs_in_workers_start_early():
    assert plays_in_workers(["run", "--bot", "knuth"])
    assert plays_in_workers(["run", "--bot", "knuth", "--sandbox", "landlock"])
    assert not plays_in_workers(["run", "--bot", "knuth", "--in-process"])
    assert not plays_in_workers(["run", "--help"])
    assert not plays_in_workers(["board", "--json"])
    assert not plays_in_workers([])


def test_planned_workers_reads_both_spellings_and_never_fails():
    assert planned_workers(["run", "--workers", "3"]) == 3
    assert planned_workers(["run", "--workers=5"]) == 5
    assert planned_workers(["run"]) == cores()
    assert planned_workers(["run", "--workers", "many"]) == 1  # the command line reports it later
    assert planned_workers(["run", "--workers", "0"]) == 1
    assert planned_workers(["run", "--workers"]) == cores()


def test_the_early_workers_are_confined_as_the_run_will_be(tmp_path):
    plan = planned_confinement(["run", "--bot", "knuth", "--unconfined"])
    assert plan is not None and plan.mechanism == "none"
    best = planned_confinement(["run", "--bot", "entropy", "--phrases", "data/pass.txt"])
    assert best.mechanism == (available() or ["none"])[0]
    if best.confined:  # the phrase game's word list is in the bot's view, and the bot's own file
        assert any(p.endswith("data/words.txt") for p in best.read)
        assert any(p.endswith("bots/entropy.py") for p in best.read)
    words = tmp_path / "w.txt"
    words.write_text("cat\ndog\n")
    if best.confined:
        custom = planned_confinement(["run", "--bot", "entropy", "--game=phrases", f"--words={words}"])
        assert str(words) in custom.read
    # arguments the command line will refuse: no early workers, no error here
    assert planned_confinement(["run", "--bot", "nobody"]) is None
    assert planned_confinement(["run", "--bot", "knuth", "--sandbox", "nothing"]) is None
    assert planned_confinement(["run"]) is None
