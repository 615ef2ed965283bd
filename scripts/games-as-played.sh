#!/usr/bin/env bash
# Regenerates the table "The games as played" of docs/results.md: each seed game's real
# start answered by the search above the tables that fit, within SECONDS (60 unless
# $SECONDS_EACH says otherwise): the value where proven, else its proven bounds, the move
# the search prefers, the line where proven, and the search's nodes and seconds. Each
# start builds its tables from nothing in its own directory.
#   scripts/games-as-played.sh [OUT_DIR]
#   SECONDS_EACH=600 scripts/games-as-played.sh      # the ten-minute column
#   ONLY=Trias scripts/games-as-played.sh            # the starts whose label holds ONLY
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/results-out.sh "$@"
budget="${SECONDS_EACH:-60}"

# One start a line: a label, then the command's arguments.
starts='Trias 3×12, 4 stones a hole|trias --holes 12 --stones 4
Njaka 12 holes, 4 counters, standard|njaka --holes 12 --counters 4
Njaka 12 holes, 4 counters, advanced|njaka --holes 12 --counters 4 --variant advanced
Awari (6 pits, 4 seeds)|awari --pits 6 --seeds 4
Trysse (6 pits, 4 seeds)|awari --rules trysse --pits 6 --seeds 4
Wari (6 pits, 4 seeds)|awari --rules wari --pits 6 --seeds 4
THI` QUADRAT, original|thi --board quadrat --rules original
THI` QUADRAT, original-pass|thi --board quadrat --rules original-pass
THI` QUADRAT, fixed1|thi --board quadrat --rules fixed1
THI` QUADRAT, fixed2|thi --board quadrat --rules fixed2
THI` QUADRAT, fixed2-pass|thi --board quadrat --rules fixed2-pass
Kalah(6,6), empty-capture|kalah --pits 6 --seeds 6
Kalah(6,6), standard|kalah --pits 6 --seeds 6 --rules standard'

echo "| start | value for the first player | preferred move | line | horizon | nodes | nodes/s | seconds | command |"
echo "|---|---|---|---|---|---|---|---|---|"
n=0
while IFS='|' read -r label args; do
  n=$((n + 1))
  [[ $label == *"${ONLY:-}"* ]] || continue
  # shellcheck disable=SC2086 # the arguments are words
  $solve $args --time "$budget" --out "$out/$n" --json 2>/dev/null |
    python3 -c '
import json, sys
label, command = sys.argv[1], sys.argv[2]
r = json.load(sys.stdin)
def shown(v):
    if isinstance(v, int):
        return "{:+d}".format(v)
    if v["kind"] == "outcome":
        return v["outcome"] if v.get("plies") is None else "{} in {}".format(v["outcome"], v["plies"])
    if v["kind"] == "score":
        return "{:+d}".format(v["score"])
    if v["kind"] == "bounds":
        return "between {} and {}".format(shown(v["lower"]), shown(v["upper"]))
    return v["kind"]
v = r["value"]
proven = v["kind"] != "bounds"
value = ("**{}**" if proven else "{}").format(shown(v))
best = r.get("best") or "–"
line = " ".join(r.get("line") or []) or "–"
s = r["details"].get("search") if r.get("details") else None
if s:
    rate = s["nodes"] / s["seconds"] if s["seconds"] > 0 else 0
    # Kalah MTD(f) searches to the end: it has no horizon.
    horizon = "–" if s["horizon"] is None else s["horizon"]
    search = "{} | {:,} | {:.2e} | {:.1f}".format(horizon, s["nodes"], rate, s["seconds"])
else:
    search = "– | – | – | – (tables)"
print("| {} | {} | {}{} | {} | {} | `{}` |".format(label, value, best, "" if proven else " (not proven)", line, search, command))
' "$label" "solve $args --time $budget"
done <<<"$starts"
