#!/usr/bin/env bash
# Regenerates a table of docs/results.md: every opening move's exact margin for South in
# Kalah(M, N) under each preset, by `solve kalah` (every move, not --value-only) on the
# automatic endgame tables, or on ENDGAME_SEEDS-seed tables when given. Prints a Markdown
# table (one row a preset, one column a move, the best margin in bold), then each run's
# time, nodes and peak memory, on standard output; each run's JSON goes to OUT_DIR.
#   scripts/kalah-openings.sh M N [OUT_DIR] [PRESETS] [ENDGAME_SEEDS]
#   (defaults: data/, "empty-capture standard bassett", the automatic choice)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/preamble.sh "$@"
m="${1:?usage: scripts/kalah-openings.sh M N [OUT_DIR] [PRESETS] [ENDGAME_SEEDS]}"
n="${2:?usage: scripts/kalah-openings.sh M N [OUT_DIR] [PRESETS] [ENDGAME_SEEDS]}"
out="${3:-data}"
presets="${4:-empty-capture standard bassett}"
endgame=()
[[ -n "${5:-}" ]] && endgame=(--endgame-seeds "$5")
release_solve
mkdir -p "$out"
runs=()
for preset in $presets; do
  json="$out/kalah-$m-$n-$preset.json"
  if ! /usr/bin/time -f '%e %M' -o "$json.time" "$solve" kalah --time 86400 --pits "$m" --seeds "$n" --rules "$preset" \
    ${endgame[@]+"${endgame[@]}"} --out "$out" --json > "$json" 2> "$json.err"; then
    echo "error: solve kalah --pits $m --seeds $n --rules $preset failed (all of it in $json.err):" >&2
    tail -n 20 "$json.err" >&2
    exit 1
  fi
  runs+=("$json")
done
python3 - "${runs[@]}" <<'EOF'
import json, sys

def margin(score, best):
    text = "{:+d}".format(score).replace("-", "−").replace("+0", "0")
    return f"**{text}**" if best else text

def memory(kib):
    return f"{kib / 2**20:.1f} GiB" if kib >= 2**20 else f"{kib / 2**10:.0f} MiB"

reports = [(path, json.load(open(path))) for path in sys.argv[1:]]
# A preset may forbid a move the others allow (bassett's must-leave-move): every name
# any preset has, each in its first report's order.
names = []
for _, report in reports:
    names += [mv["move"] for mv in report["moves"] if mv["move"] not in names]
print("| preset | " + " | ".join(f"`{name}`" for name in names) + " |")
print("|---|" + "---|" * len(names))
timing = []
for path, report in reports:
    scores = {mv["move"]: mv["value"]["score"] for mv in report["moves"]}
    best = report["value"]["score"]
    print(f"| {report['rules']} | " + " | ".join(margin(scores[name], scores[name] == best) if name in scores else "–" for name in names) + " |")
    seconds, peak_kb = open(path + ".time").read().split()[-2:]
    details = report["details"]
    # No search where the tables hold the whole game.
    nodes = "no search" if details["search"] is None else f"{details['search']['nodes']:,} nodes"
    timing.append(f"{report['rules']} {float(seconds):.1f} s ({details['endgame_seeds']}-seed tables, "
                  f"{nodes}, peak {memory(int(peak_kb))})")
print()
print("Times from the directory as it stood: " + "; ".join(timing) + ".")
EOF
