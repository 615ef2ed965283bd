# Sourced by every script here once it has changed to the repository's root:
#   options="--big"; source scripts/preamble.sh "$@"
# `-h` or `--help` prints the script's opening comment and exits; an argument that starts
# with `-` and is not one of the script's $options is refused, so that a mistyped option
# is never taken for a directory or a board. `release_solve` builds the release binary and
# sets `solve` to its absolute path (under $CARGO_TARGET_DIR when that is set, as cargo
# puts it there).

for arg in "$@"; do
  case $arg in
    -h | --help)
      # The opening comment, after any `#!` line.
      awk 'NR == 1 && /^#!/ { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
      exit 0
      ;;
    -*)
      if [[ " ${options:-} " != *" $arg "* ]]; then
        echo "$(basename "$0"): unknown option $arg (--help says what it takes)" >&2
        exit 2
      fi
      ;;
  esac
done

release_solve() {
  cargo build --release --quiet
  solve=$(realpath "${CARGO_TARGET_DIR:-target}/release/solve")
}
