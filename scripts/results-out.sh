# Sourced by the results scripts (`source scripts/results-out.sh "$@"`): the table
# directory `out` (the script's first argument, or a fresh temporary directory removed on
# exit, so that every time is a full build) and the release binary `solve`, built first.
if [ $# -ge 1 ]; then
  out="$1"
else
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
fi
cargo build --release --quiet
solve="${CARGO_TARGET_DIR:-target}/release/solve"
