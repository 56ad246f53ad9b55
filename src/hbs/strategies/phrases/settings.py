"""The phrase breaker's knobs, and the sizes of game it plays within a worker's memory and time."""

from __future__ import annotations

from dataclasses import dataclass, replace

from hbs.core.games import PhraseGame
from hbs.errors import UnsupportedGame
from hbs.strategies.phrases.alphabet import Alphabet
from hbs.strategies.phrases.levels import ENOUGH_HITS


@dataclass
class Settings:
    """The knobs of the breaker (studied on generated phrases, never on a phrase list)."""

    # phrases drawn to design a p1 probe; None: 3000 for the tuple search (on generated 3-word
    # phrases more took fewer guesses up to 3000, none beyond), for the level search ``LEVEL_SAMPLE``
    sample: int | None = None
    mixture_share: float = 0.05  # leave out of a probe's sample the spacings under this share
    refresh_batch: int = 2  # spacings counted at a time (fixed: the guesses must not depend on the cores)
    # spacings counted a guess at most, the most likely (seven and eight words fit thousands at the
    # first answer: counting them all takes a minute and gigabytes)
    max_counted: int = 1000
    # an estimated count's draws a guess at most, all spacings (an estimate of four rounds draws
    # millions); once over, the spacings left keep their estimated counts and the guess reads the
    # spacing: eight words would otherwise spend tens of seconds on one guess; None: ``GUESS_DRAWS``
    guess_draws: float | None = None
    # the draws that fit (hits) an estimate stops at, once a round has drawn them; None: ``ESTIMATE_HITS``
    estimate_hits: int | None = None
    # loose counts (no draw fitted) a guess at most, then as drawn out: each says nothing of its
    # spacing's phrases, and counting more costs their levels (once a futile estimate stopped at a
    # quarter of its draws, an eight-word guess counted seven and took 25 s, where three had drawn
    # the guess out)
    guess_loose: int = 3
    # the level search's exact meetings a guess holds at most, all spacings (32 bytes each); a count
    # that would take it over is estimated (eight words of 2,048: 24 exact counts of 2.5 million
    # meetings each, 3 GB)
    guess_meetings: float = 2.5e7
    enumerate_below: int = 4000  # list the phrases once at most this many fit
    score_secrets: int = 1500  # candidates the p2 scores are estimated on
    score_guesses: int = 150  # candidate phrases tried as p2 guesses
    # p2 also weighs a free probe (any string, see free_probe.py) where at least ``free_from``
    # phrases are listed, designed from the best phrase on ``free_secrets`` of the scored ones in
    # ``free_passes`` passes (the contest 7553 against 7585; the same 7553 with it from 3 phrases up)
    free_from: int = 12
    free_secrets: int = 500
    free_passes: int = 3
    # coordinate-ascent passes of the probe design; None: 5 for two words and for six and more, 3
    # otherwise (six Diceware words 867 guesses against 889 over 60 phrases with 5; five words 957
    # against 946 over 80, eight 223 against 221 over 8; two words 10,506 against 10,561 over six
    # sets of 300, the contest's first 300 phrases 2277 against 2272)
    passes: int | None = None
    # a probe's left side holds only spaces (the spacing is read exactly, the counting stays cheap)
    # until at most ``pinned_spacings`` spacings are counted; None: when the level search counts
    pin_spacing: bool | None = None
    pinned_spacings: int = 4
    # a spacing not counted again is estimated to keep the mean share of their phrases that those
    # counted kept (see SpacingCounts.refresh), or the median (False; the level search took it
    # until eight Diceware words lost the secret's spacing to it: 420 guesses against 394 on 16)
    mean_shrink: bool = True
    # the first guess's left side holds letters where they tell the most, with the spaces; None: for
    # the lists of FIRST_LETTERS (a space probe alone reads the spacing exactly; with letters, more
    # spacings stay likely and are counted every guess: 50-70 rather than 15-25 for 3 words)
    first_letters: bool | None = None
    # every phrase listed from the first guess, which is then the end game's (expected guesses over
    # the list, a free probe weighed): a word list alone holds no spacing to probe; None: one-word
    # games (300 words of data/words.txt 3.95 guesses a word against 4.11, of the EFF list 4.10
    # against 4.24; two words of 300 words 4.03 against 4.01, so they keep the space probe)
    list_first: bool | None = None
    few_drawn: int = 200  # an estimated count whose draws hold at most this many phrases: guess among them
    # ... and only while the estimate counts at most this many times as many phrases (see _narrowing)
    few_cover: float = 2.0
    # ... but where the four lists found the draws (LevelSearch.four_lists), a probe is designed on
    # them once they hold this many phrases, not on loose draws: they fit, the few of many a split
    # value gives.  Eight Diceware words 834 guesses against 836 on seeds 21-30 (as many: kept for
    # aiming at tuples that fit; docs/performance.md, "Six bits a guess")
    few_four: int = 20
    # an estimated count's probe may lie over every word of a middle of three or four (seven and
    # eight words) at once, where that tells more than any one word (see PhraseBreaker._focused):
    # eight Diceware words 889 guesses against 940 over 40 phrases (seeds 21-30), about as fast
    joint_middle: bool = True

    def for_words(self, n: int) -> Settings:
        """These settings with ``guess_draws`` and ``estimate_hits``, where None, set for phrases of
        ``n`` words (``GUESS_DRAWS``, ``ESTIMATE_HITS``)."""
        draws, hits = self.guess_draws, self.estimate_hits
        return replace(self, guess_draws=GUESS_DRAWS.get(n, 1.2e7) if draws is None else draws,
                       estimate_hits=ESTIMATE_HITS.get(n, ENOUGH_HITS) if hits is None else hits)


#: The largest word lists measured to play every game within a 4 GB worker and the default time
#: budgets, by words a phrase; a larger list is declined in setup, one line naming the limit.
#: The measurements behind each (memory, slowest guess, bank spent) are in docs/performance.md,
#: "Passphrase schemes" and "Six bits a guess" (five words of 100,000: guesses of at most 7.3 s;
#: six of 20,000 under ``hbs run``, two workers, American and German lists: at most 8.9 s, no
#: bank spent).
MAX_WORDS = {3: 100_000, 4: 100_000, 5: 100_000, 6: 20_000, 7: 7_776, 8: 7_776}
#: The largest lists the tuple search (two listed sides) plays, by words a phrase; beyond (and for
#: five words and more) the level search counts them: the listed sides would outgrow the worker.
TUPLE_WORDS = {1: float("inf"), 2: float("inf"), 3: 60_000, 4: 2_048}
#: The largest lists whose first guess holds letters (``Settings.first_letters``), by words a phrase:
#: where the letters save guesses for the time they cost (more spacings stay likely and are counted);
#: larger lists make a guess too slow, four words save none.
FIRST_LETTERS = {1: float("inf"), 2: float("inf"), 3: 40_000}
#: Phrases drawn to design a p1 probe where the level search counts (``Settings.sample``), by words
#: a phrase, 1500 otherwise: eight Diceware words, their middle's words sorted out on loose draws,
#: took 23.1 guesses a phrase with 6000 against 24.3 (24 phrases; docs/performance.md, "Six bits a
#: guess"); seven and six words no fewer with 3000 or 6000.
LEVEL_SAMPLE = {8: 6000}
#: An estimate's hits that are enough (``Settings.estimate_hits``) and a guess's draws at most
#: (``Settings.guess_draws``), by words a phrase; ``levels.ENOUGH_HITS`` (4,000) and 1.2·10^7
#: otherwise.  Eight words' estimates rarely hit 4,000 in their first round of 65,536 draws: early
#: guesses drew 12 million, 2.5-5 s a guess, half of it drawing.  With half the hits and half the
#: draws a guess, eight Diceware words took 1673 guesses against 1681 over 80 phrases (seeds
#: 21-40), 7% less time, their slowest early guesses about halved (4.9-5.1 s to 2.4-2.6 s).  Seven
#: words took more guesses: 656 against 638 over seeds 21-30 with both halved, 649 with the hits
#: alone (docs/performance.md, "Six bits a guess").
ESTIMATE_HITS = {8: 2000}
GUESS_DRAWS = {8: 6e6}
#: The game's range (seven and eight words: a middle of three or four slots, whose levels past the
#: second are drawn rather than counted in the middle of a game, see ``levels.LEVEL_BUDGET``).
MAX_PHRASE_WORDS = 8
#: Spacings (word-length tuples) the first guess is designed over: (length classes) ** words
#: (eight words of seven lengths, 5,764,801: 1.4 GB and 1 s).
MAX_SPACINGS = 6_000_000
#: Phrases listed at once from the first guess at most (``Settings.list_first`` set for phrases of
#: several words: three words of 10,000 would be 10^12).
MAX_LISTED_FIRST = 1_000_000


def decline(game: PhraseGame) -> None:
    """Raise :class:`UnsupportedGame`, with the reason, for a phrase game this bot cannot play
    within its limits: a clear refusal in ``setup`` rather than a crash in every game."""
    Alphabet(game.words)  # at most MAX_LETTERS characters
    if game.n_words > MAX_PHRASE_WORDS:
        raise UnsupportedGame(f"the phrase search plays 1 to {MAX_PHRASE_WORDS} words a phrase, "
                              f"not {game.n_words}")
    limit = MAX_WORDS.get(game.n_words)
    if limit is not None and len(game.words) > limit:
        raise UnsupportedGame(f"{game.n_words}-word phrases of a list of {len(game.words):,} words: the phrase "
                              f"search is measured within a 4 GB worker up to {limit:,} words")
    classes = len({len(w) for w in game.words})
    if classes**game.n_words > MAX_SPACINGS:
        raise UnsupportedGame(f"{game.n_words}-word phrases of words of {classes} lengths: "
                              f"{classes**game.n_words:,} spacings, the phrase search designs over at most "
                              f"{MAX_SPACINGS:,}")
