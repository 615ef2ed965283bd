#!/usr/bin/env bash
# Regenerates the table of the "Oware on small boards" section of docs/results.md: the start of small Oware boards (M pits a
# row, S stones in each) under awari, trysse and wari. Prints Markdown rows on standard
# output; the largest (4x4 under trysse and wari) take about 3 minutes each on 2 cores,
# the whole run about 10.
#   scripts/oware-results.sh [OUT_DIR]
# Tables go to OUT_DIR; without it, to a fresh temporary directory (removed afterwards),
# so that every time is a full build.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/results-out.sh "$@"

# M x S: every board of 1 to 4 pits with 1 to 4 seeds, then a few more that build quickly.
boards="1x1 1x2 1x3 1x4 2x1 2x2 2x3 2x4 3x1 3x2 3x3 3x4 4x1 4x2 4x3 4x4 1x6 2x6 2x12 3x5 3x6 5x1 5x2 6x1"

echo "| board | stones | rules | target | start, South to move | opening moves (pit: value) | table positions | build s | command |"
echo "|---|---|---|---|---|---|---|---|---|"
for board in $boards; do
  m="${board%x*}"
  s="${board#*x}"
  for rules in awari trysse wari; do
    cmd="solve awari --rules $rules --pits $m --seeds $s --no-search"
    $solve awari --rules "$rules" --pits "$m" --seeds "$s" --no-search --out "$out" --json |
      python3 -c '
import json, sys
r = json.load(sys.stdin)
p, v, t = r["parameters"], r["value"], r["tables"]
def short(value):
    return {"win": "W", "draw": "D", "loss": "L"}[value["outcome"]] + ("" if value["plies"] is None else str(value["plies"]))
if r["rules"] == "awari":
    target = "–"
    start = "{:+d} ({})".format(v["score"], v["outcome"])
    moves = ", ".join("{}: {:+d}".format(m["move"], m["value"]["score"]) for m in r["moves"])
    stones = p["stones"]
else:
    target = str(p["target"])
    start = v["outcome"] if v["plies"] is None else "{} in {}".format(v["outcome"], v["plies"])
    moves = ", ".join("{}: {}".format(m["move"], short(m["value"])) for m in r["moves"])
    stones = 2 * p["pits"] * p["seeds"]
if v["outcome"] != "draw":
    start = "**" + start + "**"
cells = ["{}×{}".format(p["pits"], p["seeds"]), str(stones), r["rules"], target, start, moves,
         "{:,}".format(t["positions"]), "{:.1f}".format(t["seconds"]), "`" + sys.argv[1] + "`"]
print("| " + " | ".join(cells) + " |")
' "$cmd"
  done
done
