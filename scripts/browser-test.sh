#!/usr/bin/env bash
# Drives the page of `solve serve` in headless Chromium (scripts/browser/page.test.mjs):
# builds THI` PRIMUS and Kalah(3,2) tables and serves them; reads the start (moves best
# first, grouped), clicks a move, steps back, reopens a copied link; plays a whole game of
# PRIMUS and one of Kalah against the page by clicking the board, with hint and take-back;
# sets up positions in the editor (THI`, Kalah, Awari); downloads the PRIMUS game as a
# record, replays it with `solve thi --record` and loads it back; checks the sides' names,
# Njaka's ring, flip, the bounds of a start above the tables, and Aualé's OGN. Needs Chromium (Debian: apt-get install
# chromium) and Node.js with npm; installs playwright-core (no browser download) under
# scripts/browser/.
# Usage: scripts/browser-test.sh [DIR]: with DIR, writes the screenshots DIR/serve.png (a
# phone, after one move), DIR/page-play.png (a Kalah game played) and DIR/page-edit.png
# (the editor), as docs/ holds them.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/preamble.sh "$@"
shots="${1:-}"
if [[ -n $shots && ! -d $shots ]]; then
    echo "browser-test: $shots is not a directory: give the directory the screenshots go to" >&2
    exit 2
fi
chromium="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [[ -z "$chromium" ]]; then
    echo "browser-test: no Chromium on this machine (apt-get install chromium)" >&2
    exit 2
fi
command -v npm >/dev/null || { echo "browser-test: no npm on this machine" >&2; exit 2; }
(cd scripts/browser && npm install --no-audit --no-fund --silent)
release_solve
tables="$(mktemp -d)"
log="$(mktemp)"
errors="$(mktemp)"
cleanup() {
    [[ -n "${server:-}" ]] && kill "$server" 2>/dev/null || true
    rm -rf "$tables" "$log" "$errors"
}
trap cleanup EXIT
for build in "thi --board primus" "kalah --pits 3 --seeds 2 --table" "awari --pits 3 --seeds 2" \
    "njaka --holes 4 --counters 2"; do
    # shellcheck disable=SC2086 # the words of each build are its arguments
    if ! "$solve" $build --out "$tables" >/dev/null 2>"$errors"; then
        echo "browser-test: building the tables of \`solve $build\` failed:" >&2
        cat "$errors" >&2
        exit 1
    fi
done
# Wari on the real board, its tables up to the 7 stones of the end of a match of Aualé's
# (its OGN is loaded).
if ! "$solve" awari --rules wari --position "1,0,0,1,1,0,2,0,0,1,1,0 17-24" --out "$tables" >/dev/null 2>"$errors"; then
    echo "browser-test: building the tables of Wari up to 7 stones failed:" >&2
    cat "$errors" >&2
    exit 1
fi
"$solve" serve --tables "$tables" --addr 127.0.0.1:0 >"$log" 2>"$errors" &
server=$!
for _ in $(seq 50); do
    grep -q "^listening on" "$log" && break
    sleep 0.1
done
url="$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$log")"
if [[ -z "$url" ]]; then
    echo "browser-test: the server did not start within 5 s:" >&2
    cat "$errors" >&2
    exit 1
fi
CHROMIUM="$chromium" node scripts/browser/page.test.mjs "$url" "$solve" "$tables" ${shots:+"$(realpath "$shots")"}
