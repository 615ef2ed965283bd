"""Small tables of every game, built once by the `solve` command for the whole suite, and
the command itself, to compare answers with."""

import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]

#: Each game's start: the parameters the package takes, the `solve` arguments that build
#: and answer it, and the arguments that ask a position of the same board and rules.
STARTS = [
    ("thi", {"board": "primus"}, ["thi", "--board", "primus"], ["thi", "--board", "primus"]),
    ("kalah", {"pits": 3, "seeds": 2}, ["kalah", "--pits", "3", "--seeds", "2", "--table"], ["kalah", "--table"]),
    ("awari", {"pits": 3, "seeds": 2}, ["awari", "--pits", "3", "--seeds", "2"], ["awari"]),
    (
        "oware",
        {"rules": "wari", "pits": 2, "seeds": 2},
        ["awari", "--rules", "wari", "--pits", "2", "--seeds", "2"],
        ["awari", "--rules", "wari"],
    ),
    ("trias", {"holes": 3, "stones": 1}, ["trias", "--holes", "3", "--stones", "1"], ["trias"]),
    ("njaka", {"holes": 4, "counters": 2}, ["njaka", "--holes", "4", "--counters", "2"], ["njaka"]),
]


def solve_binary():
    """The `solve` binary: $SOLVE, else the workspace's (release, then debug)."""
    given = os.environ.get("SOLVE")
    if given:
        return pathlib.Path(given)
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    for profile in ("release", "debug"):
        if (target / profile / "solve").exists():
            return target / profile / "solve"
    raise RuntimeError("no `solve` binary: build it (cargo build --release) or give its path in $SOLVE")


class Solve:
    """The `solve` command over one root of tables."""

    def __init__(self, root):
        self.binary = solve_binary()
        self.root = root

    def run(self, args):
        return subprocess.run(
            [str(self.binary), *args, "--out", str(self.root)], capture_output=True, text=True, check=False
        )

    def json(self, args):
        done = self.run([*args, "--json"])
        assert done.returncode == 0, f"solve {args}: {done.stderr}"
        return json.loads(done.stdout)

    def error(self, args):
        """The message `solve` prints for `args`, refused, with any lines after it."""
        done = self.run(args)
        assert done.returncode != 0, f"solve {args} was not refused"
        return done.stderr[done.stderr.index("error: ") :].removeprefix("error: ").strip()


@pytest.fixture(scope="session")
def root(tmp_path_factory):
    """A root holding the tables of every start of STARTS, built by `solve`."""
    root = tmp_path_factory.mktemp("tables")
    solve = Solve(root)
    for _, _, build, _ in STARTS:
        done = solve.run(build)
        assert done.returncode == 0, f"solve {build}: {done.stderr}"
    return root


@pytest.fixture(scope="session")
def solve(root):
    return Solve(root)


@pytest.fixture(scope="session")
def tables(root):
    import mancala_solve

    return mancala_solve.Tables(root)
