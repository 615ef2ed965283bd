#!/usr/bin/env bash
# Regenerates the THI` start-value table of docs/results.md: every 3×3 setup under every
# rule set, with and without bonus moves. Prints Markdown rows on standard output.
#   scripts/results.sh [OUT_DIR]      (tables go to OUT_DIR, default data/)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-data}"
cargo build --release --quiet
solve=target/release/solve
echo "| board | rules | bonus | value for White | plies | claim \"perfect play draws\" | reachable positions (win / draw / loss for the mover) | table entries | table bytes | command |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for board in primus duo trias; do
  for rules in original original-pass fixed1 fixed2 fixed2-pass; do
    for bonus in "" "--bonus"; do
      cmd="solve thi --board $board --rules $rules${bonus:+ $bonus}"
      $solve thi --board "$board" --rules "$rules" $bonus --out "$out" --json |
        python3 -c '
import json, sys
r = json.load(sys.stdin)
s, c, t = r["value"], r["reachable"], r["tables"]
value = {"win": "**win**", "loss": "**loss**", "draw": "draw"}[s["outcome"]]
plies = "–" if s["plies"] is None else str(s["plies"])
claim = "holds" if r["details"]["claim_perfect_play_draws"] else "**refuted**"
bonus = "yes" if r["parameters"]["bonus"] else "no"
reach = "{:,} ({:,} / {:,} / {:,})".format(c["positions"], c["win"], c["draw"], c["loss"])
cells = [r["parameters"]["board"], r["rules"], bonus, value, plies, claim, reach,
         "{:,}".format(t["positions"]), "{:,}".format(t["bytes"]), "`" + sys.argv[1] + "`"]
print("| " + " | ".join(cells) + " |")
' "$cmd"
    done
  done
done
