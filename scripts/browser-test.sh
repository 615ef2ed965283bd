#!/usr/bin/env bash
# Drives the page of `solve serve` in headless Chromium: builds THI` PRIMUS tables, serves
# them, clicks a move and checks the page shows the new position's values
# (scripts/browser/page.test.mjs). Needs Chromium (Debian: apt-get install chromium) and
# Node.js with npm; installs playwright-core (no browser download) under scripts/browser/.
# Usage: scripts/browser-test.sh [SCREENSHOT.png]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/preamble.sh "$@"
screenshot="${1:-}"
if [[ -n $screenshot && $screenshot != *.png ]]; then
    echo "browser-test: the screenshot is written as PNG; name it *.png, not $screenshot" >&2
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
if ! "$solve" thi --board primus --out "$tables" >/dev/null 2>"$errors"; then
    echo "browser-test: building the PRIMUS tables failed:" >&2
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
CHROMIUM="$chromium" node scripts/browser/page.test.mjs "$url" ${screenshot:+"$(realpath -m "$screenshot")"}
