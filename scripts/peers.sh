#!/usr/bin/env bash
# Times our `solve` against two public Kalah solvers on the instances each of them was made
# for, interleaved (ours, theirs, ours, theirs ...) for --rounds rounds, and prints the best
# wall time, the peak memory (/usr/bin/time %M), the nodes searched (ours and Irving's search;
# CMancala prints no count) and our/their time ratio of each.
#
# Peers (sources pinned to the commits below; built with gcc under $PEERS_DIR/build):
#   Irving   https://github.com/girving/kalah       (Irving, Donkers & Uiterwijk 2000 rules =
#            our `--rules empty-capture`). C + Cilk-5; Cilk-5 is long gone, so the serial
#            elision is built (`make serial`, i.e. -DNOCILK): ONE thread, no thread setting.
#            The table generator `generator` is serial C anyway. The number of pits is a
#            compile-time constant (params.h PITS), so there is one build per board size.
#            Build patch: only CFLAGS (gcc rejects Apple's -fnested-functions, and the headers'
#            `extern inline` needs -fgnu89-inline); PITS=5 by sed for the 5-pit build.
#   CMancala https://github.com/LifesLight/CMancala (standard rules: a capture needs seeds
#            opposite = our `--rules standard`; 6 pits only). Single-threaded by design
#            (README: "The AI runs on a single thread"); no thread setting. Driven through its
#            headless mode: `Mancala --api [--egdb K] [--cache B]` reading `SOLVE <code>` lines;
#            the endgame database (EGDB) goes to ./EGDB/ of the working directory.
#
# Instances (--only takes a comma-separated list of these names):
#   irving-table6  6-pit tables to 20 seeds from an empty directory, ours on 1 and 2 threads.
#                  theirs: printf 'BITS\nc 20\nr\n<pos>\nq\n' | generator endgame.dat
#                  ours:   solve --threads 1 kalah --position <a 20-seed board> --endgame-seeds 20
#                  (our CLI has no tables-only command: a position with exactly 20 seeds in the
#                  pits is one table probe, so only the tables are built; both print its value)
#   irving-6-4     Kalah(6,4) over 20-seed tables already built (not timed): ours on 1 and 2
#                  threads, Irving's kalah-s (serial): kalah-s -t TT -e 20 -E endgame.dat s 4
#   irving-table5  5-pit tables to 20 seeds, ours on 1 and 2 threads.
#   cm-6-4         Kalah(6,4) standard over 17-seed tables already built, ours on 1 and 2 threads:
#                  echo "SOLVE <code>" | Mancala --api --egdb 17 --cache B
#   cm-6-3         Kalah(6,3) standard from an empty directory (CMancala: no EGDB), ours 1 and 2:
#                  echo "SOLVE <code>" | Mancala --api --cache B
#   cm-table       6-pit standard tables to 17 seeds from an empty directory, ours 1 and 2:
#                  Mancala --api --egdb 17 (then SOLVE of a 17-seed board for its value)
# --tiny runs the same shapes on small sizes (tables to 10 seeds, Kalah(6,3)/(6,2)) in seconds.
#
# Usage: scripts/peers.sh [--rounds N] [--only NAMES] [--tiny] [--dry-run] [--solve PATH]
#          [--work DIR] [--irving-bits 4|5] [--irving-tt BITS] [--cm-cache BITS] [--force]
#   Sources: $IRVING_SRC / $CMANCALA_SRC if set, else git clone into the work directory
#   ($PEERS_DIR, default /tmp/mancala-peers). --solve PATH uses that binary instead of
#   building ours with cargo. --irving-bits: 5 (default) stores every table value exactly, as
#   ours does; 4 is the README's "usually" (16 and up saturate to a lower bound).
#   --irving-tt: Irving's transposition table, 2^BITS entries of 16 bytes (default 27: 2 GiB,
#   like our default --tt-bits 27; keep it <= 30). --cm-cache: CMancala's cache, 2^BITS
#   entries of 6 bytes (default 28: 1.5 GiB; its author measured Kalah(6,4) at 31).
set -euo pipefail

IRVING_URL=https://github.com/girving/kalah
IRVING_COMMIT=0a0c00702908f4ba865f2a1baa548ac0e3724950
CMANCALA_URL=https://github.com/LifesLight/CMancala
CMANCALA_COMMIT=1c8dbdae35ea5e1873271d54580486694f31390c

root=$(cd "$(dirname "$0")/.." && pwd)
work=${PEERS_DIR:-/tmp/mancala-peers}
rounds=3
only=""
tiny=no
dry=no
solve=""
irving_bits=5
irving_tt=27
cm_cache=28
force=()

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }

while (($#)); do
  case $1 in
    --rounds) rounds=${2:?--rounds needs a value}; shift ;;
    --only) only=${2:?--only needs a value}; shift ;;
    --tiny) tiny=yes ;;
    --dry-run) dry=yes ;;
    --solve) solve=${2:?--solve needs a value}; shift ;;
    --work) work=${2:?--work needs a value}; shift ;;
    --irving-bits) irving_bits=${2:?--irving-bits needs a value}; shift ;;
    --irving-tt) irving_tt=${2:?--irving-tt needs a value}; shift ;;
    --cm-cache) cm_cache=${2:?--cm-cache needs a value}; shift ;;
    --force) force=(--force) ;;
    -h | --help) usage 0 ;;
    *) echo "unknown argument: $1" >&2; usage 2 >&2 ;;
  esac
  shift
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "--rounds: a whole number from 1, not '$rounds'" >&2; exit 2; }
[[ $irving_bits == [45] ]] || { echo "--irving-bits: 4 or 5, not '$irving_bits'" >&2; exit 2; }

# The runs start in their own directories: a relative --solve is taken from here.
if [[ -n $solve && $dry == no ]]; then
  [[ -f $solve && -x $solve ]] || { echo "--solve: no executable file $solve" >&2; exit 2; }
  solve=$(realpath "$solve")
fi

all="irving-table6 irving-6-4 irving-table5 cm-6-4 cm-6-3 cm-table"
selected=${only//,/ }
selected=${selected:-$all}
for name in $selected; do
  [[ " $all " == *" $name "* ]] || { echo "unknown instance: $name (one of: $all)" >&2; exit 2; }
done

# Sizes: the real ones, or the tiny ones of --tiny.
if [[ $tiny == yes ]]; then
  irv_k=10 irv_seeds=3 cm_k=10 cm_seeds=3 cm_free_seeds=2
  irving_tt=20 cm_cache=22
else
  irv_k=20 irv_seeds=4 cm_k=17 cm_seeds=4 cm_free_seeds=3
fi

run() { # print a command; run it unless --dry-run
  echo "+ $*"
  [[ $dry == yes ]] || "$@"
}

fresh() { # an empty directory
  run rm -rf "$1"
  run mkdir -p "$1"
}

# ---------------------------------------------------------------- sources and builds
src_dir() { # env name, url, commit, clone dir -> prints the source directory
  # Runs inside $(...), where `set -e` does not reach: every failure exits by hand.
  local name=$1 url=$2 commit=$3 dest=$4
  local env=${!name:-}
  if [[ -n $env ]]; then
    [[ -d $env ]] || { echo "error: $name=$env is not a directory" >&2; exit 1; }
    echo "$env"
    return
  fi
  if [[ $dry == yes ]]; then
    echo "+ git clone $url $dest && git -C $dest checkout $commit" >&2
  elif [[ ! -d $dest/.git ]]; then
    if ! git clone -q "$url" "$dest" >&2; then
      rm -rf "$dest"
      echo "error: cannot clone $url; set $name to a checkout of commit $commit" >&2
      exit 1
    fi
    git -C "$dest" checkout -q "$commit" >&2 ||
      { echo "error: $dest has no commit $commit" >&2; exit 1; }
  elif [[ $(git -C "$dest" rev-parse HEAD) != "$commit" ]]; then
    git -C "$dest" fetch -q origin >&2 || true
    git -C "$dest" checkout -q "$commit" >&2 ||
      { echo "error: $dest has no commit $commit; set $name to a checkout of it" >&2; exit 1; }
  fi
  echo "$dest"
}

build_irving() { # pits -> builds $work/build/irving-p<pits>/{generator,kalah-s}
  local pits=$1 dir=$work/build/irving-p$1
  echo "== building Irving's kalah, PITS=$pits (serial elision) in $dir"
  fresh "$dir"
  if [[ $dry == yes ]]; then
    echo "+ cp -r $irving_src/. $dir/"
  else
    cp -r "$irving_src/." "$dir/"
    rm -rf "$dir/.git"
  fi
  run sed -i "s/^#define PITS [0-9]* /#define PITS $pits /" "$dir/params.h"
  # The Makefile's CFLAGS minus Apple's -fnested-functions (gcc nests functions anyway), plus
  # -fgnu89-inline for the headers' `extern inline`.
  run make -s -C "$dir" serial CFLAGS="-O3 -funroll-loops -fgnu89-inline -w"
}

build_cmancala() {
  local dir=$work/build/cmancala
  echo "== building CMancala (Release) in $dir"
  run rm -rf "$dir"
  if command -v cmake > /dev/null; then
    run cmake -S "$cmancala_src" -B "$dir" -DCMAKE_BUILD_TYPE=Release
    run cmake --build "$dir" -j1
  else # the same flags as its CMakeLists.txt (native build, RAM EGDB backend)
    run mkdir -p "$dir"
    local s=$cmancala_src/src
    run gcc -std=c2x -O3 -DNDEBUG -march=native -fno-stack-protector -flto=auto \
      -I"$cmancala_src/include" -DMANCALA_VERSION='"12.2"' -DEGDB_BACKEND_NAME='"RAM"' \
      "$s/main.c" "$s/logic/utility.c" "$s/logic/board.c" "$s/logic/solver/algo.c" \
      "$s/logic/solver/cache.c" "$s/logic/solver/opening_book.c" "$s/user/render.c" \
      "$s/user/handleConfig.c" "$s/user/handleGame.c" "$s/user/handlePlaying.c" \
      "$s/logic/solver/egdb/core.c" "$s/user/runBenchmark.c" "$s/user/interface.c" \
      "$s/logic/solver/egdb/memory/direct.c" -lm -o "$dir/Mancala"
  fi
}

need_irv6=no need_irv5=no need_cm=no
for name in $selected; do
  case $name in
    irving-table6 | irving-6-4) need_irv6=yes ;;
    irving-table5) need_irv5=yes ;;
    cm-*) need_cm=yes ;;
  esac
done

if [[ $dry == no ]]; then
  [[ -x /usr/bin/time ]] || { echo "/usr/bin/time is needed (Debian: apt-get install time)" >&2; exit 1; }
  mkdir -p "$work"
fi
work=$(cd "$work" 2> /dev/null && pwd || echo "$work")

if [[ $need_irv6 == yes || $need_irv5 == yes ]]; then
  irving_src=$(src_dir IRVING_SRC "$IRVING_URL" "$IRVING_COMMIT" "$work/src/kalah")
  [[ $need_irv6 == yes ]] && build_irving 6
  [[ $need_irv5 == yes ]] && build_irving 5
fi
if [[ $need_cm == yes ]]; then
  cmancala_src=$(src_dir CMANCALA_SRC "$CMANCALA_URL" "$CMANCALA_COMMIT" "$work/src/CMancala")
  build_cmancala
fi
irv6=$work/build/irving-p6
irv5=$work/build/irving-p5
mancala=$work/build/cmancala/Mancala

if [[ -z $solve ]]; then
  echo "== building ours"
  (cd "$root" && run cargo build --release -p mancala-cli)
  solve=${CARGO_TARGET_DIR:-$root/target}/release/solve
fi

# ---------------------------------------------------------------- positions
board() { # pits, seeds in the pits, seeds in all -> "south/north sstore-nstore S" with the pit
  # seeds dealt one at a time to South's pit 1, North's pit 1, South's pit 2, ...
  local m=$1 k=$2 total=$3 i
  local -a s n
  for ((i = 0; i < m; i++)); do s[i]=0 n[i]=0; done
  for ((i = 0; i < k; i++)); do
    if ((i % 2 == 0)); then ((s[(i / 2) % m] += 1)); else ((n[(i / 2) % m] += 1)); fi
  done
  local IFS=, # every stored seed in South's store: CMancala's codes keep only 3 bits of North's
  echo "${s[*]}/${n[*]} $((total - k))-0 S"
}
irving_cells() { # our board notation -> Irving's 2m+2 numbers (South pits, store, North pits, store)
  local rows=${1%% *} stores=${1#* }
  stores=${stores% *}
  local south=${rows%/*} north=${rows#*/}
  echo "${south//,/ } ${stores%-*} ${north//,/ } ${stores#*-}"
}
cm_code() { # our 6-pit board notation, South to move -> CMancala's SOLVE code
  local -a c
  read -ra c <<< "$(irving_cells "$1")"
  # A code is 8 bits a cell after a turn bit, less its first 20 bits: North's store keeps 3.
  ((c[13] < 8)) || { echo "cm_code: North's store must be under 8 in $1" >&2; exit 1; }
  local low=1 high=0 i shift=1 # bit 0: player 1 (South) to move; then 8 bits a cell
  for ((i = 0; i < 14; i++)); do
    if ((shift < 64)); then ((low |= c[i] << shift)); else ((high |= c[i] << (shift - 64))); fi
    ((shift += 8))
  done
  local hex
  hex=$(printf '%016x%016x' "$high" "$low")
  echo "${hex:5}"
}

# ---------------------------------------------------------------- runs
results=$work/results.tsv
logs=$work/logs
if [[ $dry == no ]]; then
  mkdir -p "$logs" "$work/pre" "$work/runs"
  : > "$results"
fi

# run_one INSTANCE TOOL THREADS ROUND DIR FRESH(yes|no) PARSER STDIN -- COMMAND...
# Runs COMMAND in DIR (emptied first if FRESH) under /usr/bin/time with STDIN as its input;
# appends "instance tool threads round wall peak_kb value status" to $results.
run_one() {
  local inst=$1 tool=$2 threads=$3 round=$4 dir=$5 fresh=$6 parser=$7 input=$8
  shift 9
  if [[ $dry == yes ]]; then
    [[ $round == 1 ]] || return 0
    local q
    q=$(printf ' %q' "$@")
    [[ $fresh == yes ]] && echo "  rm -rf $dir; mkdir -p $dir"
    if [[ -n $input ]]; then
      echo "  [$inst $tool t$threads] (cd $dir && printf $(printf %q "$input") |$q)"
    else
      echo "  [$inst $tool t$threads] (cd $dir &&$q < /dev/null)"
    fi
    return 0
  fi
  [[ $fresh == yes ]] && rm -rf "$dir"
  mkdir -p "$dir"
  local log=$logs/$inst.$tool.t$threads.r$round.log tf=$logs/$inst.$tool.t$threads.r$round.time
  printf '%s' "$input" > "$log.in"
  local status=ok
  (cd "$dir" && /usr/bin/time -o "$tf" -f '%e %M' "$@" < "$log.in" > "$log" 2>&1) || status=FAIL
  local wall peak value nodes=-
  read -r wall peak < <(tail -n 1 "$tf") || true
  case $parser in
    ours)
      value=$(sed -n 's/^value for [A-Za-z]* (to move): *+\{0,1\}\(-\{0,1\}[0-9]*\).*/\1/p' "$log" | tail -n 1)
      nodes=$(sed -n 's/^searched above the tables: \([0-9,]*\) nodes .*/\1/p' "$log" | tail -n 1 | tr -d ,)
      ;;
    irving-gen) value=$(sed -n 's/.*Rate: *\(-\{0,1\}[0-9]*\)$/\1/p' "$log" | tail -n 1) ;;
    irving-kalah)
      value=$(sed -n 's/^Move: .*, r \(-\{0,1\}[0-9]*\), rd .*/\1/p' "$log" | tail -n 1)
      nodes=$(sed -n 's/^Nodes searched: *\([0-9]*\)$/\1/p' "$log" | tail -n 1)
      ;;
    cm) value=$(sed -n 's/.*OK EVAL \(-\{0,1\}[0-9]*\) .*/\1/p' "$log" | tail -n 1) ;; # prints no count
  esac
  # A run whose output no longer holds what is read from it has failed, not agreed.
  [[ -n $value ]] || status=FAIL
  [[ $fresh == yes ]] && rm -rf "$dir"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$inst" "$tool" "$threads" "$round" \
    "${wall:-nan}" "${peak:-0}" "${value:--}" "$status" "${nodes:--}" >> "$results"
  printf '  %-14s %-8s t%s round %s: %7s s %7s MB  value %s  nodes %s  %s\n' "$inst" "$tool" "$threads" \
    "$round" "${wall:-?}" "$(((${peak:-0} + 512) / 1024))" "${value:--}" "${nodes:--}" "$status"
}

ours() { # threads, then solve's kalah arguments -> the command in the array $cmd
  local t=$1
  shift
  cmd=("$solve" "${force[@]}" --threads "$t" kalah "$@" --value-only)
}
start_board() { # pits, seeds a pit -> the start in our notation
  local row
  row=$(printf ",$2%.0s" $(seq "$1"))
  echo "${row#,}/${row#,} 0-0 S"
}

# Prepared tables (built once, not timed) for the instances that search over them.
prep() { # description, directory, then the command to run in it (skipped if the directory exists)
  local what=$1 dir=$2
  shift 2
  if [[ -e $dir/.done ]]; then
    echo "== $what: reusing $dir"
    return
  fi
  echo "== $what (not timed) in $dir"
  fresh "$dir"
  if [[ $dry == yes ]]; then
    echo "+ (cd $dir && ${*})"
  else
    (cd "$dir" && bash -c "$*") > "$dir.log" 2>&1 || { echo "failed; see $dir.log" >&2; exit 1; }
    touch "$dir/.done"
  fi
}

irving_input() { # the generator's stdin: bits (asked for a new file), complete to k, look up a board
  printf '%s\nc %s\nr\n%s\nq\n' "$irving_bits" "$1" "$(irving_cells "$2")"
}

irving_table() { # name round pits seeds-in-all irving-build: the tables to $irv_k seeds, from empty
  local inst=$1 r=$2 d=$work/runs/$1 pos t
  pos=$(board "$3" "$irv_k" "$4")
  for t in 1 2; do
    ours "$t" --position "$pos" --endgame-seeds "$irv_k" --out .
    run_one "$inst" ours "$t" "$r" "$d/ours" yes ours "" -- "${cmd[@]}"
    [[ $t == 1 ]] || continue
    run_one "$inst" irving 1 "$r" "$d/irving" yes irving-gen "$(irving_input "$irv_k" "$pos")" -- "$5/generator" endgame.dat
  done
}

instance() { # name round
  local inst=$1 r=$2 d=$work/runs/$1 pre=$work/pre
  local pos code
  case $inst in
    irving-table6) irving_table "$inst" "$r" 6 48 "$irv6" ;;
    irving-6-4)
      for t in 1 2; do
        ours "$t" --pits 6 --seeds "$irv_seeds" --endgame-seeds "$irv_k" --out .
        run_one "$inst" ours "$t" "$r" "$pre/ours-empty-m6-k$irv_k" no ours "" -- "${cmd[@]}"
        [[ $t == 1 ]] || continue
        run_one "$inst" irving 1 "$r" "$pre/irving-m6-b$irving_bits-k$irv_k" no irving-kalah "" -- \
          "$irv6/kalah-s" -t "$irving_tt" -e "$irv_k" -E endgame.dat s "$irv_seeds"
      done
      ;;
    irving-table5) irving_table "$inst" "$r" 5 40 "$irv5" ;;
    cm-6-4)
      code=$(cm_code "$(start_board 6 "$cm_seeds")")
      for t in 1 2; do
        ours "$t" --pits 6 --seeds "$cm_seeds" --rules standard --endgame-seeds "$cm_k" --out .
        run_one "$inst" ours "$t" "$r" "$pre/ours-standard-m6-k$cm_k" no ours "" -- "${cmd[@]}"
        [[ $t == 1 ]] || continue
        run_one "$inst" cmancala 1 "$r" "$pre/cmancala-k$cm_k" no cm "SOLVE $code"$'\n' -- \
          "$mancala" --api --egdb "$cm_k" --cache "$cm_cache"
      done
      ;;
    cm-6-3)
      code=$(cm_code "$(start_board 6 "$cm_free_seeds")")
      for t in 1 2; do
        ours "$t" --pits 6 --seeds "$cm_free_seeds" --rules standard --out .
        run_one "$inst" ours "$t" "$r" "$d/ours" yes ours "" -- "${cmd[@]}"
        [[ $t == 1 ]] || continue
        run_one "$inst" cmancala 1 "$r" "$d/cmancala" yes cm "SOLVE $code"$'\n' -- "$mancala" --api --cache "$cm_cache"
      done
      ;;
    cm-table)
      pos=$(board 6 "$cm_k" 48)
      code=$(cm_code "$pos")
      for t in 1 2; do
        ours "$t" --rules standard --position "$pos" --endgame-seeds "$cm_k" --out .
        run_one "$inst" ours "$t" "$r" "$d/ours" yes ours "" -- "${cmd[@]}"
        [[ $t == 1 ]] || continue
        # --cache 17: the smallest cache it takes; the one SOLVE is only there to print a value.
        run_one "$inst" cmancala 1 "$r" "$d/cmancala" yes cm "SOLVE $code"$'\n' -- "$mancala" --api --egdb "$cm_k" --cache 17
      done
      ;;
  esac
}

for name in $selected; do
  case $name in
    irving-6-4)
      prep "our 6-pit empty-capture tables to $irv_k seeds" "$work/pre/ours-empty-m6-k$irv_k" \
        "$(ours 2 --position "$(board 6 "$irv_k" 48)" --endgame-seeds "$irv_k" --out . && printf '%q ' "${cmd[@]}")"
      prep "Irving's 6-pit tables to $irv_k seeds" "$work/pre/irving-m6-b$irving_bits-k$irv_k" \
        "printf '$irving_bits\\nc $irv_k\\nq\\n' | $irv6/generator endgame.dat"
      ;;
    cm-6-4)
      prep "our 6-pit standard tables to $cm_k seeds" "$work/pre/ours-standard-m6-k$cm_k" \
        "$(ours 2 --rules standard --position "$(board 6 "$cm_k" 48)" --endgame-seeds "$cm_k" --out . && printf '%q ' "${cmd[@]}")"
      prep "CMancala's EGDB to $cm_k seeds" "$work/pre/cmancala-k$cm_k" \
        "$mancala --api --egdb $cm_k < /dev/null"
      ;;
  esac
done

echo "== $rounds round(s), interleaved$([[ $tiny == yes ]] && echo ', TINY sizes'); logs in $logs"
[[ $dry == yes ]] && echo "  (each line below runs under: /usr/bin/time -f '%e %M'; every round the same)"
for ((r = 1; r <= rounds; r++)); do
  for name in $selected; do
    instance "$name" "$r"
  done
  [[ $dry == yes ]] && break
done
[[ $dry == yes ]] && exit 0

# ---------------------------------------------------------------- table
echo
awk -F'\t' '
  $8 == "ok" {
    k = $1 SUBSEP $2 SUBSEP $3
    if (!(k in best) || $5 + 0 < best[k]) { best[k] = $5 + 0; nodes[k] = $9 }
    if ($6 + 0 > peak[k]) peak[k] = $6 + 0
    if (!(k in order)) { order[k] = ++n; keys[n] = k }
    vals[$1] = vals[$1] " " $7; val[k] = $7
    if ($2 != "ours" && (!($1 in theirs) || $5 + 0 < theirs[$1])) theirs[$1] = $5 + 0
  }
  $8 != "ok" { nfailed++; failed[$1 SUBSEP $2 SUBSEP $3]++; if (!(($1 SUBSEP $2 SUBSEP $3) in order)) { order[$1 SUBSEP $2 SUBSEP $3] = ++n; keys[n] = $1 SUBSEP $2 SUBSEP $3 } }
  END {
    printf "%-14s %-9s %7s %10s %9s %7s %11s %11s  %s\n", "instance", "tool", "threads", "best s", "peak MB", "value", "nodes", "ours/theirs", "values"
    for (i = 1; i <= n; i++) {
      split(keys[i], f, SUBSEP)
      agree = "agree"; m = split(vals[f[1]], v, " ")
      for (j = 2; j <= m; j++) if (v[j] != v[1]) agree = "MISMATCH:" vals[f[1]]
      if (!(keys[i] in best)) { printf "%-14s %-9s %7s %10s\n", f[1], f[2], f[3], "FAILED"; continue }
      ratio = (f[2] == "ours" && (f[1] in theirs) && theirs[f[1]] > 0) ? sprintf("%.2f", best[keys[i]] / theirs[f[1]]) : "-"
      printf "%-14s %-9s %7s %10.2f %9.0f %7s %11s %11s  %s%s\n", f[1], f[2], f[3], best[keys[i]], peak[keys[i]] / 1024, val[keys[i]], nodes[keys[i]], ratio, agree, (keys[i] in failed) ? " (" failed[keys[i]] " failed)" : ""
    }
    bad = nfailed
    for (k in vals) { m = split(vals[k], v, " "); for (j = 2; j <= m; j++) if (v[j] != v[1]) bad++ }
    if (bad) { print "peers.sh: some runs failed or their values disagree (logs in the work directory)" > "/dev/stderr"; exit 1 }
  }' "$results"
