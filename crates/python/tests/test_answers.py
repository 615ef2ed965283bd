"""Every game's answers from Python equal the `solve` command's `--json`, and many
positions asked at once are answered as each alone."""

import pytest

from conftest import STARTS

#: What a report says of the position (the rest says where the tables are and how long
#: they took to open).
VERDICT = ["game", "parameters", "rules", "position", "start", "to_move", "over", "value", "moves", "best", "line", "line_end"]


def verdict(report):
    kept = {key: report[key] for key in VERDICT}
    details = dict(report.get("details") or {})
    # The time taken, and how far the tables opened reach (Kalah's command opens those
    # up to the position's seeds, a root all of them): not what the position is worth.
    details.pop("seconds", None)
    details.pop("endgame_seeds", None)
    kept["details"] = details
    return kept


@pytest.mark.parametrize("game, params, build, as_position", STARTS, ids=[s[0] for s in STARTS])
def test_every_game_answers_as_its_command(tables, solve, game, params, build, as_position):
    start = tables.query(game, **params)
    assert start["schema"] == 1
    assert verdict(start) == verdict(solve.json(build))
    assert set(start) >= set(solve.json(build)) - {"reachable"}
    # Each position a move leads to, and the line's last, asked as a position.
    positions = [m["position"] for m in start["moves"]] + [start["line_end"]["position"]]
    board = {k: v for k, v in params.items() if k not in ("seeds", "stones", "counters")}
    for position in positions:
        mine = tables.query(game, position, **board)
        theirs = solve.json([*as_position, "--position", position])
        assert verdict(mine) == verdict(theirs), position


@pytest.mark.parametrize("game, params, build, as_position", STARTS, ids=[s[0] for s in STARTS])
def test_many_positions_are_answered_as_each_alone(tables, game, params, build, as_position):
    board = {k: v for k, v in params.items() if k not in ("seeds", "stones", "counters")}
    start = tables.query(game, **params)
    positions = [start["position"]] + [m["position"] for m in start["moves"]]
    positions += [p for m in start["moves"] for p in (n["position"] for n in tables.query(game, m["position"], **board)["moves"])]
    positions = positions * 20
    for max_line in (0, 5):
        many = tables.query_many(game, positions, max_line=max_line, **board)
        alone = [tables.query(game, p, max_line=max_line, **board) for p in positions]
        assert [verdict(r) for r in many] == [verdict(r) for r in alone]
    assert tables.values(game, positions, **board) == [r["value"] for r in alone]


@pytest.mark.parametrize("game, params, build, as_position", STARTS, ids=[s[0] for s in STARTS])
def test_a_tier_read_whole_has_each_positions_value(tables, game, params, build, as_position):
    board = {k: v for k, v in params.items() if k not in ("seeds", "stones", "counters")}
    # The directory, by the parameters its holding lists.
    held = next(h["parameters"] for h in tables.holdings if h["game"] == game)
    name, size = tables.tiers(game, **held)[-1]
    read = list(tables.tier(game, name, **held))
    assert len(read) == size
    arrays = list(tables.tier_arrays(game, name, chunk=1000, positions=True, **held))
    assert [p for a in arrays for p in a["positions"]] == [p for p, _ in read]
    kind = arrays[0]["kind"]
    amounts = [x for a in arrays for x in a["score" if kind == "score" else "plies"]]
    outcomes = [x for a in arrays for x in a["outcome"]]
    assert outcomes == [{"win": 1, "draw": 0, "loss": -1}[v["outcome"]] for _, v in read]
    assert amounts == [v.get("score", v.get("plies")) or 0 for _, v in read]
    # Kalah's tables hold boards: as positions, with even stores and South to move.
    shown = [f"{p} 0-0 S" if game == "kalah" else p for p, _ in read[:2000]]
    assert tables.values(game, shown, **board) == [v for _, v in read[:2000]]
