#!/usr/bin/env bash
# Regenerates the table of the "Trias" section of docs/results.md: the start of every
# 3×K board with S stones a hole that this machine solves, South to move. Prints Markdown
# rows on standard output; each board is built from nothing in its own directory, so that
# every time is a full build (3×6 with 1 stone, the largest, takes about 19 minutes and 7 GiB).
#   scripts/trias-results.sh [OUT_DIR]
#   BOARDS="3x3 4x2" scripts/trias-results.sh    # only these rows (K x S)
# Tables go to OUT_DIR/KxS; without it, to a fresh temporary directory (removed afterwards).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/results-out.sh "$@"

# K x S
boards="${BOARDS:-1x1 1x2 1x3 1x4 1x5 1x6 1x8 1x10 1x12 2x1 2x2 2x3 2x4 2x5 2x6 2x8 3x1 3x2 3x3 3x4 4x1 4x2 5x1 6x1}"

echo "| board | stones | start, South to move | opening moves (hole: value) | best line | table positions | reachable (won / lost for the mover) | build s | positions/s | bytes/position | peak memory | command |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for board in $boards; do
  k="${board%x*}"
  s="${board#*x}"
  cmd="solve trias --holes $k --stones $s --no-search"
  $solve trias --holes "$k" --stones "$s" --no-search --out "$out/$board" --json |
    python3 -c '
import json, sys
r = json.load(sys.stdin)
p, v, t, reach = r["parameters"], r["value"], r["tables"], r["reachable"]
def short(value):
    return {"win": "W", "loss": "L"}[value["outcome"]] + str(value["plies"])
start = "**{}** in {}".format(v["outcome"], v["plies"])
moves = ", ".join("{}: {}".format(m["move"], short(m["value"])) for m in r["moves"]) or "none"
line = " ".join(r["line"]) or "–"
rate = t["positions"] / t["seconds"] if t["seconds"] > 0 else 0
peak = t["peak_memory_bytes"]
cells = ["3×{}".format(p["holes"]), str(p["stones"]), start, moves, line,
         "{:,}".format(t["positions"]),
         "{:,} ({:,} / {:,})".format(reach["positions"], reach["win"], reach["loss"]),
         "{:.1f}".format(t["seconds"]), "{:.2e}".format(rate), "{:.2f}".format(t["bytes"] / t["positions"]),
         "–" if peak is None else "{:.0f} MiB".format(peak / 2**20), "`" + sys.argv[1] + "`"]
print("| " + " | ".join(cells) + " |")
' "$cmd"
done
