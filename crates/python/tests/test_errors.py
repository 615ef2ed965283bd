"""Bad input raises the documented exception with the command's message; a damaged table
raises and never gives a value."""

import pathlib
import shutil

import pytest

import mancala_solve
from conftest import Solve
from mancala_solve import (
    ImpossiblePositionError,
    MalformedPositionError,
    NotBuiltError,
    ParameterError,
    TablesError,
)

#: Requests refused: the package's game and parameters, the command's arguments, and the
#: exception. Kalah's command reads a position by its own words ("reading position …"), so
#: its refusal is compared by the reason it gives.
REFUSED = [
    ("awari", {"position": "1,2,x, 1,1,1"}, ["awari", "--position", "1,2,x, 1,1,1"], MalformedPositionError),
    ("awari", {"position": "1,2, 1,1,1"}, ["awari", "--position", "1,2, 1,1,1"], MalformedPositionError),
    (
        "awari",
        {"pits": 3, "position": "1,2,3,4, 1,1,1,1"},
        ["awari", "--pits", "3", "--position", "1,2,3,4, 1,1,1,1"],
        ImpossiblePositionError,
    ),
    ("awari", {"pits": 9, "seeds": 2}, ["awari", "--pits", "9", "--seeds", "2"], ParameterError),
    ("trias", {"position": "0,0,x/0,0,1/1,2,0 S"}, ["trias", "--position", "0,0,x/0,0,1/1,2,0 S"], MalformedPositionError),
    ("njaka", {"position": "3s,0s,3n,0x S"}, ["njaka", "--position", "3s,0s,3n,0x S"], MalformedPositionError),
    (
        "thi",
        {"board": "primus", "position": "b,b,b/-,-,-/w,w,q w"},
        ["thi", "--board", "primus", "--position", "b,b,b/-,-,-/w,w,q w"],
        MalformedPositionError,
    ),
    ("kalah", {"position": "2,2,x/2,2,2 0-0 S"}, ["kalah", "--position", "2,2,x/2,2,2 0-0 S"], MalformedPositionError),
    ("kalah", {"position": "2,2,2/2,2 0-0 S"}, ["kalah", "--position", "2,2,2/2,2 0-0 S"], MalformedPositionError),
]


@pytest.mark.parametrize("game, params, args, raised", REFUSED)
def test_bad_input_raises_with_the_commands_message(tables, solve, game, params, args, raised):
    with pytest.raises(raised) as refused:
        tables.query(game, **params)
    assert isinstance(refused.value, ValueError), "bad input is a ValueError too"
    said = solve.error(args)
    if game == "kalah":
        assert said.split(": ", 1)[1] == str(refused.value).split(": ", 1)[1]
    else:
        assert str(refused.value) == said


def test_a_parameter_and_a_game_are_named():
    root = pathlib.Path(__file__)
    with pytest.raises(ParameterError) as refused:
        mancala_solve.build(root, "awari", pits=9, seeds=2)
    assert refused.value.parameter == "pits"
    assert str(refused.value) == "--pits: 9 is not in 1 to 6"
    with pytest.raises(ParameterError, match="unknown game `chess`"):
        mancala_solve.build(root, "chess")


def test_a_batch_names_the_position_refused(tables):
    positions = ["1,1,1, 1,1,1", "1,1,1, 1,x,1", "0,0,1, 1,0,0"]
    with pytest.raises(MalformedPositionError) as refused:
        tables.values("awari", positions)
    assert refused.value.index == 1


def test_tables_not_built_name_the_command(tables):
    with pytest.raises(NotBuiltError) as refused:
        tables.query("awari", pits=4, seeds=2)
    assert refused.value.command.startswith("solve awari --pits 4 --stones 16")
    assert refused.value.command in str(refused.value)


def damaged_copy(root, tmp_path, game):
    """A copy of `game`'s tables under `root` in which one byte of its largest table's
    body is flipped."""
    copy = tmp_path / "damaged"
    shutil.copytree(root / game, copy / game)
    largest = max(copy.glob(f"{game}/*/tier-*.tbl"), key=lambda p: p.stat().st_size)
    data = bytearray(largest.read_bytes())
    data[len(data) - 3] ^= 0x40
    largest.write_bytes(bytes(data))
    return copy


def test_a_damaged_table_raises_and_gives_no_value(root, tmp_path):
    copy = damaged_copy(root, tmp_path, "njaka")
    with pytest.raises(TablesError) as refused:
        mancala_solve.Tables(copy)
    said = Solve(copy).error(["njaka", "--holes", "4", "--counters", "2"])
    # The command adds how to have the file rebuilt, on a line of its own.
    assert said.splitlines()[0] == str(refused.value)
    # Left out, the directory answers nothing; asked of, it is named.
    skipping = mancala_solve.Tables(copy, skip_damaged=True)
    assert [s["directory"] for s in skipping.skipped] == [str(next(copy.glob("njaka/*")))]
    with pytest.raises(NotBuiltError, match="left out when the tables were opened"):
        skipping.query("njaka", holes=4, counters=2)


def test_a_table_damaged_once_open_raises_and_gives_no_value(root, tmp_path):
    copy = tmp_path / "changed"
    shutil.copytree(root / "awari", copy / "awari")
    opened = mancala_solve.Tables(copy)
    held = opened.holdings[0]["parameters"]
    name, _ = opened.tiers("awari", **held)[-1]
    table = next(copy.glob(f"awari/*/tier-{name}.tbl"))
    data = bytearray(table.read_bytes())
    data[len(data) - 3] ^= 0x40
    table.write_bytes(bytes(data))
    with pytest.raises(TablesError):
        list(opened.tier("awari", name, **held))
    with pytest.raises(TablesError):
        opened.query("awari", seeds=2, **held)
