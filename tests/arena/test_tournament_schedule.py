"""A local tournament's runs share the workers: a bot's games start while the bot before it still
plays, and every game is the one it plays alone (real workers, confined as a run would be)."""

from __future__ import annotations

from hbs.arena import runs, tournament
from hbs.arena.request import Request
from hbs.sandbox import confinement

BOTS = ["knuth", "first", "random"]


def test_the_runs_share_the_workers_and_each_plays_its_games_alone():
    mechanism, _ = confinement.choose("auto")
    base = Request(game="mastermind", limit=400)
    options = runs.RunOptions(workers=2, confinement=mechanism, replay_folder=None)
    events: list[tuple[str, str]] = []
    entries = tournament.play(BOTS, base, options, None, on_record=lambda r: events.append(("game", r.bot)),
                              on_start=lambda bot, done, todo: events.append(("start", bot)))
    assert [e.bot for e in entries] == BOTS and all(e.outcome is not None for e in entries)
    assert sum(kind == "game" for kind, _ in events) == 3 * 400
    # shared: every run was under way (its bot ready to be set up in a free slot) before the first
    # bot's first game ended, not once the bots before it were over
    first_game = events.index(("game", "knuth"))
    assert {bot for kind, bot in events[:first_game] if kind == "start"} == set(BOTS)
    for entry in entries:  # the same games as the bot's run on its own
        alone = runs.execute(Request(bot=entry.bot, game="mastermind", limit=400), options)
        assert [[s.guess for s in r.steps] for r in entry.outcome.records] == \
               [[s.guess for s in r.steps] for r in alone.records]
        assert entry.outcome.summary.total_guesses == alone.summary.total_guesses
