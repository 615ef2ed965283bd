#!/usr/bin/env bash
# Regenerates the table of the "Njaka's game" section of docs/results.md: the start of
# H holes with S counters each, standard and advanced, counterclockwise, South to move.
# Prints Markdown rows on standard output; each board is built from nothing in its own
# directory, so that every time is a full build (10 holes with 3 counters, the largest,
# about 3.5 minutes and 9.2 GiB).
#   scripts/njaka-results.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/results-out.sh "$@"

# variant:H x S
boards="standard:4x1 standard:4x2 standard:4x3 standard:4x4 standard:4x6 standard:4x8
standard:6x1 standard:6x2 standard:6x3 standard:6x4 standard:8x1 standard:8x2 standard:8x3 standard:8x4
standard:10x1 standard:10x2 standard:10x3 standard:12x1
advanced:4x1 advanced:4x2 advanced:4x3 advanced:4x4 advanced:4x6 advanced:4x8
advanced:6x1 advanced:6x2 advanced:6x3 advanced:6x4 advanced:8x1 advanced:8x2 advanced:10x1"

echo "| holes | counters | variant | start, South to move (sets) | opening moves (hole: value) | best line | end of the line | table positions | build s | command |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for entry in $boards; do
  variant="${entry%%:*}"
  board="${entry#*:}"
  h="${board%x*}"
  s="${board#*x}"
  flag=""
  if [ "$variant" = advanced ]; then flag="--variant advanced"; fi
  cmd="solve njaka --holes $h --counters $s${flag:+ $flag} --no-search"
  $solve njaka --holes "$h" --counters "$s" $flag --no-search --out "$out/$entry" --json |
    python3 -c '
import json, sys
r = json.load(sys.stdin)
p, v, t = r["parameters"], r["value"], r["tables"]
start = "{:+d} ({})".format(v["score"], v["outcome"])
if v["outcome"] != "draw":
    start = "**" + start + "**"
moves = ", ".join("{}: {:+d}".format(m["move"], m["value"]["score"]) for m in r["moves"]) or "none"
line = " ".join(r["line"][:20]) + (" …" if len(r["line"]) > 20 else "") or "–"
end = {"over": "over", "repetition": "repeats after move {}".format(r["line_end"]["repeats_ply"]), "cut": "cut"}[r["line_end"]["kind"]]
cells = [str(p["holes"]), str(p["counters"]), p["variant"], start, moves, line, end,
         "{:,}".format(t["positions"]), "{:.1f}".format(t["seconds"]), "`" + sys.argv[1] + "`"]
print("| " + " | ".join(cells) + " |")
' "$cmd"
done
