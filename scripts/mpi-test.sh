#!/usr/bin/env bash
# The MPI tests (docs/distributed.md). Builds `solve` with the cargo feature `mpi`, then,
# for each engine, builds a small board with 2 and with 3 processes under `mpirun` and
# compares every table, byte for byte, with those one process builds: THI` DUO (outcomes),
# Trias 3x3 with 2 stones a hole (the acyclic engine), Awari on 4 pits a row to 12 stones
# (scores with cycles, un-moves) and Njaka on 8 holes with 2 counters (scores with cycles,
# parents found by the scan). Then kills one process of a THI` DUO build inside a tier:
# the job must stop, `mpirun` naming the process, and the same command run again must
# reuse the finished tiers and end with the same tables. Needs Open MPI's `mpirun` and
# libclang (`.ci/run` installs both).
#   scripts/mpi-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/preamble.sh "$@"
cargo build --quiet -p mancala-cli --features mpi
solve=$(realpath "${CARGO_TARGET_DIR:-target}/debug/solve")
mpirun=(mpirun --oversubscribe)
if [[ "$(id -u)" == 0 ]]; then mpirun+=(--allow-run-as-root); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The checksums of every table under a directory, by name.
tables() {
  (cd "$1" && find . -name 'tier-*.tbl' | sort | xargs sha256sum)
}

# same NAME ARGS...: the tables of `solve ARGS` from 1, 2 and 3 processes are the same.
same() {
  local name=$1
  shift
  "$solve" "$@" --out "$work/$name-1" >"$work/$name-1.log" 2>&1
  local expected
  expected=$(tables "$work/$name-1")
  [[ -n $expected ]] || { echo "FAIL $name: one process built no table" >&2; exit 1; }
  for n in 2 3; do
    if ! "${mpirun[@]}" -n "$n" "$solve" "$@" --out "$work/$name-$n" >"$work/$name-$n.log" 2>&1; then
      echo "FAIL $name: $n processes: mpirun failed" >&2
      tail -20 "$work/$name-$n.log" >&2
      exit 1
    fi
    if [[ "$(tables "$work/$name-$n")" != "$expected" ]]; then
      echo "FAIL $name: the tables of $n processes differ from one process's" >&2
      diff <(echo "$expected") <(tables "$work/$name-$n") >&2 || true
      exit 1
    fi
    if ! grep -q "sent each other" "$work/$name-$n.log"; then
      echo "FAIL $name: $n processes exchanged nothing: no tier was shared" >&2
      exit 1
    fi
  done
  echo "ok $name: $(echo "$expected" | wc -l) tables equal from 1, 2 and 3 processes"
}

same thi-duo thi --board duo
same trias-3x3 trias --holes 3 --stones 2 --no-search
same awari-4x12 awari --pits 4 --stones 12
same njaka-8x2 njaka --holes 8 --counters 2

# A process killed inside a tier stops the job; the rerun resumes to the same tables.
killed="$work/thi-killed"
"${mpirun[@]}" -n 2 "$solve" thi --board duo --out "$killed" >"$work/killed.log" 2>&1 &
job=$!
# Rank 1, once the first tiers are written (the largest come last).
while [[ ! -e $killed/thi/3x3-original/tier-5-3.tbl ]]; do
  kill -0 "$job" 2>/dev/null || { echo "FAIL killed: the build ended before it was killed" >&2; exit 1; }
  sleep 0.2
done
victim=""
for pid in $(pgrep -f "$solve thi --board duo --out $killed"); do
  if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1'; then victim=$pid; fi
done
[[ -n $victim ]] || { echo "FAIL killed: process 1 not found" >&2; exit 1; }
kill -9 "$victim"
if wait "$job"; then
  echo "FAIL killed: the job went on after process 1 was killed" >&2
  exit 1
fi
if ! grep -q "exited on signal 9" "$work/killed.log"; then
  echo "FAIL killed: mpirun did not say which process died:" >&2
  tail -20 "$work/killed.log" >&2
  exit 1
fi
"${mpirun[@]}" -n 2 "$solve" thi --board duo --out "$killed" >"$work/resumed.log" 2>&1
if ! grep -Eq "28 tiers: [0-9]+ built, [1-9][0-9]* reused" "$work/resumed.log"; then
  echo "FAIL killed: the rerun reused no finished tier:" >&2
  grep "tables:" "$work/resumed.log" >&2 || true
  exit 1
fi
if [[ "$(tables "$killed")" != "$(tables "$work/thi-duo-1")" ]]; then
  echo "FAIL killed: the resumed tables differ from one process's" >&2
  exit 1
fi
echo "ok killed: process 1 killed inside a tier stopped the build; the rerun resumed to the same tables"
