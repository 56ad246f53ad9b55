from hbs.feedback import grade
from hbs.oracle import Oracle


def test_oracle_answers_by_the_rule_counts_and_wins_only_on_exact_match():
    oracle = Oracle("the big cat")
    assert oracle.ask("tiger baby mauling") == (*grade("tiger baby mauling", "the big cat"), False)
    longer = oracle.ask("the big cats")
    assert longer.solved is False and longer.black == 11
    assert oracle.ask("the big cat").solved is True
    assert oracle.guesses == 3


def test_oracle_hides_its_secret_from_attributes():
    oracle = Oracle("1234")
    assert not hasattr(oracle, "__dict__")
