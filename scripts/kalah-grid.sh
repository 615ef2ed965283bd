#!/usr/bin/env bash
# Regenerates a Kalah margin grid of docs/results.md: the first player's margin of
# Kalah(m, n) for n = 1..6 and each m of PITS under one preset, each by `solve kalah
# --value-only` on the automatic endgame tables. Instances above MAX_SEEDS seeds in all
# are left as `—`. Prints a Markdown table, then each instance's time, on standard output.
#   scripts/kalah-grid.sh PRESET [MAX_SEEDS] [OUT_DIR] [PITS]
#   (defaults: 48 seeds, data/, "1 2 3 4 5 6"; the longer rows: "7 8")
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/preamble.sh "$@"
preset="${1:?usage: scripts/kalah-grid.sh empty-capture|standard|bassett [MAX_SEEDS] [OUT_DIR] [PITS]}"
max="${2:-48}"
out="${3:-data}"
pits="${4:-1 2 3 4 5 6}"
release_solve
err=$(mktemp)
trap 'rm -f "$err"' EXIT
times=()
echo "| m \\ n | 1 | 2 | 3 | 4 | 5 | 6 |"
echo "|---|---|---|---|---|---|---|"
for m in $pits; do
  row="| $m |"
  for n in 1 2 3 4 5 6; do
    if (( 2 * m * n > max )); then
      row+=" — |"
      continue
    fi
    if ! json=$("$solve" kalah --time 86400 --pits "$m" --seeds "$n" --rules "$preset" --value-only --out "$out" --json 2>"$err"); then
      echo "error: solve kalah --pits $m --seeds $n --rules $preset failed:" >&2
      tail -n 20 "$err" >&2
      exit 1
    fi
    read -r margin seconds < <(python3 -c '
import json, sys
r = json.loads(sys.argv[1])
print("{:+d}".format(r["value"]["score"]).replace("-", "−").replace("+0", "0"), "{:.1f}".format(r["details"]["seconds"]))' "$json")
    row+=" $margin |"
    times+=("Kalah($m,$n) ${seconds} s")
  done
  echo "$row"
done
echo
joined=$(printf '%s, ' "${times[@]}")
echo "Times (tables built as needed, reused within each m): ${joined%, }."
