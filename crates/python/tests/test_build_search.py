"""Tables built from Python are the command's, progress is told as tiers are solved, and a
position above the tables is answered by a search within its budget."""

import pytest

import mancala_solve
from conftest import Solve
from test_answers import verdict


def test_tables_built_from_python_are_the_commands(tmp_path):
    told = []
    built = mancala_solve.build(tmp_path, "kalah", pits=2, seeds=2, progress=lambda *t: told.append(t))
    assert built["tables"]["tiers_built"] == built["tables"]["tiers"] > 0
    tiers = {tier for tier, _, _ in told}
    assert len(tiers) == built["tables"]["tiers"]
    for tier in tiers:
        last = [t for t in told if t[0] == tier][-1]
        assert last[1] == last[2], f"tier {tier} ends done: {last}"
    # The command finds every tier built, and answers as the package does.
    theirs = Solve(tmp_path).json(["kalah", "--pits", "2", "--seeds", "2", "--table"])
    assert theirs["tables"]["tiers_built"] == 0
    assert verdict(mancala_solve.Tables(tmp_path).query("kalah", pits=2, seeds=2)) == verdict(theirs)
    again = mancala_solve.build(tmp_path, "kalah", pits=2, seeds=2)
    assert again["tables"]["tiers_built"] == 0


def test_a_progress_callback_that_raises_stops_nothing_but_is_raised(tmp_path):
    def refuse(tier, done, work):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        mancala_solve.build(tmp_path, "trias", holes=3, stones=1, progress=refuse)
    # The tables were finished all the same.
    assert mancala_solve.Tables(tmp_path).query("trias", holes=3, stones=1)["value"]["kind"] == "outcome"


def test_a_position_above_the_tables_is_searched(tables, tmp_path):
    mancala_solve.build(tmp_path, "kalah", pits=3, seeds=1)
    lower = mancala_solve.Tables(tmp_path)
    with pytest.raises(mancala_solve.NotBuiltError):
        lower.query("kalah", pits=3, seeds=2)
    searched = lower.search("kalah", pits=3, seeds=2, time=60)
    whole = tables.query("kalah", pits=3, seeds=2)
    assert searched["value"] == whole["value"]
    # Kalah's own search answers by whole turns, as the tables do.
    assert searched["moves"] == whole["moves"]
    assert searched["best"] in [m["move"] for m in whole["moves"] if m["value"] == whole["value"]]
    bounded = lower.search("kalah", pits=3, seeds=2, time=None, nodes=10)
    assert bounded["value"]["kind"] in ("bounds", "score")
    with pytest.raises(mancala_solve.ParameterError, match="--time"):
        lower.search("kalah", pits=3, seeds=2, time=-1.0)
