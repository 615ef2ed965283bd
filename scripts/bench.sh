#!/usr/bin/env bash
# Measures a THI` TRIAS build under `original` from an empty table directory: wall time,
# positions per second, bytes per position on disk, peak memory, and the speed-up of
# 2 threads over 1; then the warm cost of a position query through the CLI, and through
# `solve serve` under 64 concurrent clients (wrk: requests per second, p50/p99), and
# through the Python package where it is installed (one query; positions per second for
# many in one call); then
# Kalah(6,4)'s value from an empty directory: endgame tables (boards per second, bytes per
# board), the search (nodes per second) and peak memory; then a Trias build (3x3, 3 stones
# a hole) on 1 and 2 threads. With --big, then the builds that take hours, on 2 threads
# only: THI` 5x5 with single counters (original, then fixed1: under an hour each, 4.7 GB),
# Awari to 24 stones, and Awari to 28 (about 80 minutes, 7.2 GB).
#   scripts/bench.sh            (uses a temporary directory; leaves data/ alone)
#   scripts/bench.sh --big
set -euo pipefail
cd "$(dirname "$0")/.."
options="--big"
source scripts/preamble.sh "$@"
big=no
case "$*" in
  "") ;;
  --big) big=yes ;;
  *) echo "bench.sh: takes --big or nothing, not: $*" >&2; exit 2 ;;
esac
release_solve
work=$(mktemp -d)
server=""
cleanup() {
  if [[ -n $server ]]; then kill "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

build() { # threads, then the subcommand and its arguments -> prints "seconds positions bytes peak_bytes largest_tier whole_seconds"
  local threads=$1
  shift
  rm -rf "$work/data"
  local start end
  start=$(date +%s%N)
  "$solve" --threads "$threads" "$@" --out "$work/data" --json >"$work/build.json"
  end=$(date +%s%N)
  python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["tables"]
print(t["seconds"], t["positions"], t["bytes"], t["peak_memory_bytes"], t["largest_tier"], int(sys.argv[2]) / 1e9)' \
    "$work/build.json" $((end - start))
}

speed_up() { # the subcommand and its arguments: builds on 1 and 2 threads, prints the figures
  read -r s1 positions bytes peak1 largest whole1 < <(build 1 "$@")
  read -r s2 _ _ peak2 _ whole2 < <(build 2 "$@")
  python3 - "$s1" "$s2" "$positions" "$bytes" "$peak1" "$peak2" "$largest" "$whole1" "$whole2" <<'PY'
import sys
s1, s2, n, b, p1, p2, largest, w1, w2 = map(float, sys.argv[1:])
print(f"positions:            {int(n):,}")
print(f"build, 1 thread:      {s1:.2f} s  ({n / s1 / 1e6:.2f} M positions/s)")
print(f"build, 2 threads:     {s2:.2f} s  ({n / s2 / 1e6:.2f} M positions/s)")
print(f"speed-up 2 vs 1:      {s1 / s2:.2f}x")
print(f"whole command:        {w1:.2f} s (1 thread), {w2:.2f} s (2 threads): the build and what follows it (the census)")
print(f"on disk:              {int(b):,} bytes ({b / n:.3f} bytes, {8 * b / n:.2f} bits a position, tables in blocks where that halves them)")
print(f"peak memory:          {p1 / 2**20:.0f} MiB (1 thread), {p2 / 2**20:.0f} MiB (2 threads)")
print(f"largest tier:         {int(largest):,} positions; peak memory {p2 / largest:.2f} bytes a position of it")
PY
}

two_threads() { # the subcommand and its arguments: builds on 2 threads, prints the figures
  read -r s positions bytes peak largest _ < <(build 2 "$@")
  python3 - "$s" "$positions" "$bytes" "$peak" "$largest" <<'PY'
import sys
s, n, b, p, largest = map(float, sys.argv[1:])
print(f"positions:            {int(n):,}")
print(f"build, 2 threads:     {s:.0f} s  ({n / s / 1e6:.2f} M positions/s)")
print(f"on disk:              {int(b):,} bytes ({b / n:.3f} bytes, {8 * b / n:.2f} bits a position, tables in blocks where that halves them)")
print(f"peak memory:          {p / 2**30:.2f} GiB")
print(f"largest tier:         {int(largest):,} positions; peak memory {p / largest:.2f} bytes a position of it")
PY
}

echo "THI\` TRIAS, rules original, built from scratch (tables + reachable census)"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB"
speed_up thi --board trias --rules original

# A warm query: the tables are built and in the page cache; each run opens and checks
# every table, analyses the position and prints the line.
position="bbb,bbb,bbb/-,-,-/www,www,www w"
"$solve" thi --board trias --out "$work/data" --position "$position" >/dev/null
runs=20
start=$(date +%s%N)
for _ in $(seq $runs); do "$solve" thi --board trias --out "$work/data" --position "$position" >/dev/null; done
end=$(date +%s%N)
echo "warm CLI query (process start, open+check 55 tables, analyse, print): $(( (end - start) / runs / 1000 )) µs"
echo "per-probe and per-query costs without the process: cargo bench -p mancala-games"

echo
echo "solve serve on the TRIAS tables: 64 concurrent clients for 15 s (wrk, 2 threads, on the same machine)"
if command -v wrk >/dev/null; then
  "$solve" serve --tables "$work/data" --addr 127.0.0.1:0 >"$work/serve.log" 2>"$work/serve.err" &
  server=$!
  for _ in $(seq 100); do grep -q "^listening on" "$work/serve.log" && break; sleep 0.1; done
  url=$(sed -n 's/^listening on \(http:[^ ]*\)\/.*/\1/p' "$work/serve.log")
  if [[ -z $url ]]; then
    echo "error: solve serve did not start within 10 s:" >&2
    cat "$work/serve.err" >&2
    exit 1
  fi
  # The positions asked: the start, every position after one and two moves, and the
  # best line's, so that the answers are not one position's.
  python3 - "$url" >"$work/positions.lua" <<'PY'
import json, sys, urllib.parse, urllib.request
url = sys.argv[1]
def get(position):
    q = urllib.parse.urlencode({"board": "trias"} if position is None else {"position": position})
    return json.load(urllib.request.urlopen(f"{url}/api/thi?{q}"))
start = get(None)
positions = {start["position"], *start["line_positions"]}
for m in start["moves"]:
    positions.add(m["position"])
    positions.update(n["position"] for n in get(m["position"])["moves"])
paths = [f"/api/thi?position={urllib.parse.quote(p)}" for p in sorted(positions)]
print("paths = {" + ",".join(json.dumps(p) for p in paths) + "}")
print("i = 0")
print("request = function() i = i % #paths + 1; return wrk.format(\"GET\", paths[i]) end")
PY
  echo "positions asked: $(grep -o '"/api' "$work/positions.lua" | wc -l)"
  wrk -t2 -c64 -d15s --latency -s "$work/positions.lua" "$url" | tee "$work/wrk.txt" |
    awk '/Requests\/sec/{print "requests per second:  " $2} / 50%/{print "latency p50:          " $2} / 99%/{print "latency p99:          " $2} /Non-2xx/{print "non-2xx answers:      " $4}'
  kill "$server"
  server=""
else
  echo "skipped: no wrk on this machine (apt-get install wrk)"
fi

echo
echo "the Python package (mancala_solve) on the TRIAS tables: one query, and many in one call"
python=${PYTHON:-python3}
if "$python" -c "import mancala_solve" 2>/dev/null; then
  "$python" - "$work/data" "$position" <<'PY'
import sys, time
import mancala_solve
root, start = sys.argv[1], sys.argv[2]
began = time.perf_counter()
tables = mancala_solve.Tables(root)
print(f"open the root once:   {(time.perf_counter() - began) * 1e3:.1f} ms")
def each(call, runs):
    began = time.perf_counter()
    for _ in range(runs):
        call()
    return (time.perf_counter() - began) / runs * 1e6
print(f"one query (report, line of up to 200 moves): {each(lambda: tables.query('thi', start, board='trias'), 200):.0f} µs")
print(f"one query (report, no line):                 {each(lambda: tables.query('thi', start, board='trias', max_line=0), 500):.0f} µs")
held = next(h["parameters"] for h in tables.holdings if h["game"] == "thi")
tier, size = max(tables.tiers("thi", **held), key=lambda t: t[1])
began = time.perf_counter()
positions = [p for chunk in tables.tier_arrays("thi", tier, positions=True, **held) for p in chunk["positions"]]
print(f"tier {tier} read whole with positions: {len(positions):,} in {time.perf_counter() - began:.2f} s "
      f"({len(positions) / (time.perf_counter() - began) / 1e6:.2f} M positions/s)")
positions = positions[:200_000]
for name, call in [("values", lambda: tables.values("thi", positions, board="trias")),
                   ("query_many (no line)", lambda: tables.query_many("thi", positions, board="trias"))]:
    began = time.perf_counter()
    call()
    spent = time.perf_counter() - began
    print(f"{name + ':':<22}{len(positions):,} positions in {spent:.2f} s ({len(positions) / spent:,.0f} positions/s, "
          f"{spent / len(positions) * 1e6:.1f} µs each)")
PY
else
  echo "skipped: the Python package is not installed for $python (pip install ./crates/python, or give PYTHON=...)"
fi

echo
echo "Kalah(6,4), empty-capture, the value from an empty directory (automatic endgame tables)"
rm -rf "$work/data"
json=$("$solve" kalah --time 86400 --pits 6 --seeds 4 --value-only --out "$work/data" --json)
python3 - "$json" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
t, s = r["tables"], r["details"]["seconds"]
b, n, k = t["seconds"], r["details"]["search"]["nodes"], t["positions"]
v = r["value"]
e = r["details"]["endgame_seeds"]
print(f"value:                {v['score']:+} ({v['outcome']})")
print(f"endgame tables:       {k:,} boards up to {e} seeds in {b:.2f} s ({k / b / 1e6:.2f} M boards/s)")
print(f"on disk:              {t['bytes']:,} bytes ({t['bytes'] / k:.3f} bytes/board)")
print(f"search:               {n:,} nodes in {s - b:.2f} s ({n / (s - b) / 1e6:.2f} M nodes/s on all threads, principal line included)")
print(f"total:                {s:.2f} s")
print(f"peak memory:          {t['peak_memory_bytes'] / 2**20:.0f} MiB (the transposition table grows with the search)")
PY
echo "sowing, ranking and a one-thread search without the process: cargo bench -p mancala-games --bench kalah"

echo
echo "Trias 3x3 with 3 stones a hole, built from scratch (tables + reachable census)"
speed_up trias --holes 3 --stones 3

[[ $big == yes ]] || exit 0
echo
echo "THI\` 5x5 with single counters, rules original, built from scratch (no census)"
two_threads thi --size 5 --height 1 --rules original
echo
echo "THI\` 5x5 with single counters, rules fixed1, built from scratch (no census; under an hour)"
two_threads thi --size 5 --height 1 --rules fixed1
echo
echo "Awari to 24 stones, built from scratch"
two_threads awari --stones 24
echo
echo "Awari to 28 stones, built from scratch (about 80 minutes, 7.2 GB)"
two_threads awari --stones 28
