"""The distribution of Awari values by stones on the board.

Builds (or reuses) Awari's tables of every board of up to 12 stones on the real board of
six pits a row, then reads every tier whole and counts, for the player to move, how many
positions win, draw and lose, and the mean final score.

    python awari_values.py [ROOT]      # ROOT: where the tables go (default: data)
"""

import collections
import sys
import time

import mancala_solve

root = sys.argv[1] if len(sys.argv) > 1 else "data"
started = time.time()
# The start of one stone a pit holds 12 stones: its tables are every tier up to 12.
built = mancala_solve.build(root, "awari", pits=6, seeds=1)
print(f"tables: {built['directory']}, {built['tables']['positions']:,} positions ({time.time() - started:.1f} s)")

tables = mancala_solve.Tables(root)
print(f"{'stones':>6} {'positions':>10} {'win':>6} {'draw':>6} {'loss':>6} {'mean score':>10}")
for tier, size in tables.tiers("awari", pits=6):
    outcomes = collections.Counter()
    total = 0
    for chunk in tables.tier_arrays("awari", tier, pits=6):
        outcomes.update(chunk["outcome"].tolist())
        total += sum(chunk["score"].tolist())
    share = {o: 100 * outcomes[o] / size for o in (1, 0, -1)}
    print(f"{tier:>6} {size:>10,} {share[1]:>5.1f}% {share[0]:>5.1f}% {share[-1]:>5.1f}% {total / size:>+10.3f}")
print(f"read in {time.time() - started:.1f} s")
