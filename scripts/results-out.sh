# Sourced by the results scripts (`source scripts/results-out.sh "$@"`): the table
# directory `out` (the script's first argument, or a fresh temporary directory removed on
# exit, so that every time is a full build) and the release binary `solve`, built first.
source scripts/preamble.sh "$@"
if [ $# -ge 1 ]; then
  out="$1"
else
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
fi
release_solve
