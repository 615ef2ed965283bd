#!/usr/bin/env bash
# Regenerates the THI` start-value tables of docs/results.md: every 3×3 setup under every
# rule set, without and with bonus moves, then with the bonus for any counter borne off
# (`--bonus any`). Prints the two Markdown tables on standard output.
#   scripts/results.sh [OUT_DIR]      (tables go to OUT_DIR, default data/)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/preamble.sh "$@"
out="${1:-data}"
release_solve

header() {
  echo "| board | rules | bonus | value for White | plies | claim \"perfect play draws\" | reachable positions (win / draw / loss for the mover) | table entries | table bytes | command |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
}

row() { # board, rules, bonus flags ("", "--bonus" or "--bonus any") -> one Markdown row
  local cmd="solve thi --board $1 --rules $2${3:+ $3}"
  # shellcheck disable=SC2086 # the bonus flags are separate words
  $solve thi --board "$1" --rules "$2" $3 --out "$out" --json |
    python3 -c '
import json, sys
r = json.load(sys.stdin)
s, c, t = r["value"], r["reachable"], r["tables"]
value = {"win": "**win**", "loss": "**loss**", "draw": "draw"}[s["outcome"]]
plies = "–" if s["plies"] is None else str(s["plies"])
claim = "holds" if r["details"]["claim_perfect_play_draws"] else "**refuted**"
reach = "{:,} ({:,} / {:,} / {:,})".format(c["positions"], c["win"], c["draw"], c["loss"])
cells = [r["parameters"]["board"], r["rules"], r["parameters"]["bonus"], value, plies, claim, reach,
         "{:,}".format(t["positions"]), "{:,}".format(t["bytes"]), "`" + sys.argv[1] + "`"]
print("| " + " | ".join(cells) + " |")
' "$cmd"
}

boards="primus duo trias"
rule_sets="original original-pass fixed1 fixed2 fixed2-pass"

header
for board in $boards; do
  for rules in $rule_sets; do
    for bonus in "" "--bonus"; do
      row "$board" "$rules" "$bonus"
    done
  done
done
echo
header
for board in $boards; do
  for rules in $rule_sets; do
    row "$board" "$rules" "--bonus any"
  done
done
