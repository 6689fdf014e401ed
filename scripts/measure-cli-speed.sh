#!/usr/bin/env bash
# Measures todo-cli's speed requirement: with 10,000 todos (half tagged, a third with due dates)
# and 100,000 recorded changes in the store, `add`, `done`, `list`, `list --tag x --sort due` and
# `list --search` must each take at most 3x the wall time of `todo-cli --version`.
#
# Usage: scripts/measure-cli-speed.sh [runs=40]
#
# Builds a release binary, writes a large store with scripts/make-large-store.sh, lets one
# command compact it (as the first command after an upgrade would), then times each command
# against `--version`: with hyperfine when installed (apt-get install -y hyperfine), and always
# with a plain bash loop, which also times `done` on a different open todo each run (a `done` on
# a todo that is already done writes nothing and would flatter the figure).
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-40}
swift build -c release --product todo-cli >/dev/null
cli="$(swift build -c release --show-bin-path)/todo-cli"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
store="$work/store"

scripts/make-large-store.sh "$store" 10000 100000
start=$(date +%s%N)
"$cli" --store "$store" add "first command: replays the journal once, then compacts" >/dev/null
echo "first command after writing 100,000 entries: $((($(date +%s%N) - start) / 1000000)) ms"
echo "todos: $("$cli" --store "$store" list | wc -l)," \
  "journal entries: $(cat "$store"/journal-*.jsonl | grep -c '"seq"')"

if command -v hyperfine >/dev/null; then
  hyperfine -N --warmup 3 --runs "$runs" \
    -n "version" "$cli --version" \
    -n "list" "$cli --store $store list" \
    -n "list --json" "$cli --store $store list --json" \
    -n "list --tag x --sort due" "$cli --store $store list --tag x --sort due" \
    -n "list --search" "$cli --store $store list --search 'NUMBER 42'" \
    -n "add" "$cli --store $store add speed"
fi

# Mean wall time, in microseconds, of running "$@" $runs times.
loop_us() {
  local start end
  start=$(date +%s%N)
  for ((run = 0; run < runs; run++)); do "$@" >/dev/null; done
  end=$(date +%s%N)
  echo $(((end - start) / runs / 1000))
}
next_open=1
done_next() { "$cli" --store "$store" done "$next_open"; next_open=$((next_open + 2)); }
# The loop calls done_next in this shell, so the ids advance: each run marks another odd id.
loop_done_us() {
  local start end
  start=$(date +%s%N)
  for ((run = 0; run < runs; run++)); do done_next >/dev/null; done
  end=$(date +%s%N)
  echo $(((end - start) / runs / 1000))
}

version=$(loop_us "$cli" --version)
list=$(loop_us "$cli" --store "$store" list)
add=$(loop_us "$cli" --store "$store" add speed)
tag_due=$(loop_us "$cli" --store "$store" list --tag x --sort due)
search=$(loop_us "$cli" --store "$store" list --search "NUMBER 42")
done_us=$(loop_done_us)
ratio() { awk -v a="$1" -v b="$version" 'BEGIN { printf "%.2f", a / b }'; }
echo
echo "bash loop, $runs runs each (mean wall time):"
printf '  %-24s %7.1f ms\n' "--version" "$(awk -v v="$version" 'BEGIN { print v / 1000 }')"
for name in list add done tag_due search; do
  value=$name
  label=$name
  [[ $name == done ]] && value=done_us
  [[ $name == tag_due ]] && label="list --tag x --sort due"
  [[ $name == search ]] && label="list --search"
  printf '  %-24s %7.1f ms  %sx --version\n' "$label" \
    "$(awk -v v="${!value}" 'BEGIN { print v / 1000 }')" "$(ratio "${!value}")"
done
