"""The entry point's early look at the command line: which runs start their workers at once."""

from hbs.__main__ import planned_workers, plays_in_workers
from hbs.isolation import cores


def test_only_unsandboxed_runs_in_workers_start_early():
    assert plays_in_workers(["run", "--bot", "knuth"])
    assert not plays_in_workers(["run", "--bot", "knuth", "--in-process"])
    assert not plays_in_workers(["run", "--bot", "knuth", "--sandbox"])  # bwrap needs the options first
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
