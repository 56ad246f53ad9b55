from hbs.core.feedback import grade
from hbs.core.oracle import Oracle


def test_oracle_answers_by_the_rule_counts_and_wins_only_on_exact_match():
    oracle = Oracle("the big cat")
    assert oracle.ask("tiger baby mauling") == (*grade("tiger baby mauling", "the big cat"), False)
    longer = oracle.ask("the big cats")
    assert longer.solved is False and longer.black == 11
    assert oracle.ask("the big cat").solved is True
    assert oracle.guesses == 3


def test_oracle_shows_nothing_of_its_secret():
    oracle = Oracle("1234")
    public = {name for name in dir(oracle) if not name.startswith("_")}
    assert public == {"ask", "guesses"}  # nothing else to read
    assert "1234" not in repr(oracle) and "1234" not in str(oracle)
    assert not hasattr(oracle, "__dict__")  # no attribute can be added to hold it elsewhere
