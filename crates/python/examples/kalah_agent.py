"""A Kalah(4,3) agent that plays perfectly, from the tables.

Builds (or reuses) the tables of every Kalah board of up to 24 seeds in four pits a row,
then lets the agent (South, moving first) play games against a random North: at each of
its turns it plays the best move the tables give. Perfect play keeps at least the start's
value whatever the opponent does, so every game ends with South's margin at or above it.

    python kalah_agent.py [ROOT] [GAMES]   # ROOT: where the tables go (default: data)
"""

import random
import sys
import time

import mancala_solve

root = sys.argv[1] if len(sys.argv) > 1 else "data"
games = int(sys.argv[2]) if len(sys.argv) > 2 else 200
started = time.time()
built = mancala_solve.build(root, "kalah", pits=4, seeds=3)
print(f"tables: {built['directory']}, {built['tables']['positions']:,} positions ({time.time() - started:.1f} s)")
tables = mancala_solve.Tables(root)

start = tables.query("kalah", pits=4, seeds=3)
value = start["value"]["score"]
print(f"Kalah(4,3) start: {value:+} for South, best move {start['best']}")


def play(opponent):
    """One game from the start: South plays the tables' best move, North `opponent`'s.
    Returns South's final margin."""
    report = start
    while not report["over"]:
        if report["to_move"] == "south":
            move = report["best"]
        else:
            move = opponent(report)
        position = next(m["position"] for m in report["moves"] if m["move"] == move)
        report = tables.query("kalah", position, pits=4, max_line=0)
    score = report["value"]["score"]
    return score if report["to_move"] == "south" else -score


rng = random.Random(1)
margins = [play(lambda report: rng.choice(report["moves"])["move"]) for _ in range(games)]
assert all(m >= value for m in margins), "perfect play never ends below the start's value"
print(f"against a random North, {games} games: South's margin {min(margins):+} to {max(margins):+}, "
      f"mean {sum(margins) / games:+.2f}; never below {value:+}")
# Against itself, the game ends at the start's value exactly.
itself = play(lambda report: report["best"])
print(f"against itself: {itself:+}")
assert itself == value
print(f"played in {time.time() - started:.1f} s")
