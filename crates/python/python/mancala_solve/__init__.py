"""Perfect-play tables and solver for mancala-family games, from Python.

Open a root of tables once with :class:`Tables`, then ask any position of any game it
holds: every answer is the report ``solve ... --json`` prints (a dict in the schema of
docs/json.md). Build tables with :func:`build`. Errors are the exceptions of
:mod:`mancala_solve.errors`, with the messages the ``solve`` command prints.
See docs/python.md.
"""

import array
import contextlib
import gc
import sys

from . import _native
from .errors import (
    BuildError,
    ImpossiblePositionError,
    InputError,
    MalformedPositionError,
    MancalaError,
    NotBuiltError,
    ParameterError,
    TablesError,
)

__all__ = [
    "Tables",
    "build",
    "games",
    "MancalaError",
    "InputError",
    "ParameterError",
    "MalformedPositionError",
    "ImpossiblePositionError",
    "NotBuiltError",
    "TablesError",
    "BuildError",
]

build = _native.build
games = _native.games

#: Positions read from a tier at a time by :meth:`Tables.tier` and :meth:`Tables.tier_arrays`.
CHUNK = 1 << 16

_OUTCOMES = {1: "win", 0: "draw", -1: "loss"}


class Tables(_native.Tables):
    """Every table directory under ``root``, opened once.

    ``Tables(root, skip_damaged=False)``: a directory that fails its checks raises
    :class:`TablesError`, or with ``skip_damaged`` is left out and listed in ``skipped``.

    Methods (``**params`` are the game's parameters, as ``solve`` and the API name them:
    ``pits=4, seeds=3, rules="standard"``):

    - ``query(game, position=None, *, max_line=None, **params)``: one report.
    - ``query_many(game, positions, *, max_line=0, **params)``: many reports, on every core.
    - ``values(game, positions, **params)``: each position's value only.
    - ``search(game, position=None, *, time=2.0, nodes=None, **params)``: a position above
      the tables, by a search within the budget.
    - ``tiers(game, **params)``: the tiers of a directory, with their positions.
    - ``tier(game, tier, **params)``: every position of a tier with its value.
    - ``tier_arrays(game, tier, **params)``: a tier's values in arrays, a chunk at a time.
    """

    def query_many(self, game, positions, *, max_line=0, **params):
        """The reports of many positions of one game's board and rules, answered on every
        core; the first refused raises, with its place in ``positions`` as ``index``."""
        with _collector_paused():
            return super().query_many(game, positions, max_line=max_line, **params)

    def values(self, game, positions, **params):
        """The value of each of ``positions`` for its player to move, as a report gives it;
        the first refused raises, with its place in ``positions`` as ``index``."""
        with _collector_paused():
            return super().values(game, positions, **params)

    def tier(self, game, tier, **params):
        """Yields ``(position, value)`` for every position of ``tier`` in rank order: the
        position in the notation of the tables' positions (Kalah's: the board without its
        stores, mover's row first, valued by the margin still to be gained), the value as a
        report gives it (``{"kind": "score", "outcome": "win", "score": 3}``)."""
        for read in self.tier_arrays(game, tier, CHUNK, True, **params):
            kind = read["kind"]
            amounts = read["score" if kind == "score" else "plies"]
            for position, outcome, amount in zip(read["positions"], read["outcome"], amounts):
                yield position, _value(kind, int(outcome), int(amount))

    def tier_arrays(self, game, tier, chunk=CHUNK, positions=False, **params):
        """Yields a tier a chunk of ``chunk`` ranks at a time, as a dict: ``first`` (the
        chunk's first rank), ``kind`` (``"score"`` or ``"outcome"``), ``outcome`` (int8: 1
        win, 0 draw, -1 loss), ``score`` (int32, score games) or ``plies`` (int32, outcome
        games; 0 for a draw), and, if ``positions``, ``positions`` (a list of str). The
        arrays are numpy arrays where numpy is installed, else ``array.array``."""
        tier = str(tier)
        first = 0
        while True:
            kind, outcomes, amounts, names = self.chunk(game, tier, first, chunk, positions, **params)
            if kind is None:
                return
            read = {"first": first, "kind": kind, "outcome": _array("b", outcomes)}
            read["score" if kind == "score" else "plies"] = _array("i", amounts)
            if positions:
                read["positions"] = names
            yield read
            first += len(outcomes)


@contextlib.contextmanager
def _collector_paused():
    """Python's cycle collector paused while a batch's answers are made: each is a new
    container, and a collection every few hundred of them would scan all those made
    before, which makes a large batch cost more than its parts."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _value(kind, outcome, amount):
    """A value read from a tier as a report gives it."""
    if kind == "score":
        return {"kind": "score", "outcome": _OUTCOMES[outcome], "score": amount}
    return {"kind": "outcome", "outcome": _OUTCOMES[outcome], "plies": amount if outcome else None}


def _array(code, data):
    """``data`` (native bytes) as a numpy array where numpy is present, else an array.array."""
    numpy = sys.modules.get("numpy")
    if numpy is None:
        try:
            import numpy
        except ImportError:
            return array.array(code, data)
    return numpy.frombuffer(data, dtype={"b": numpy.int8, "i": numpy.int32}[code])
