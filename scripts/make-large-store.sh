#!/usr/bin/env bash
# Writes a todo-cli store with many todos and many recorded changes, for speed measurements.
#
# Usage: scripts/make-large-store.sh <store-dir> [todos=10000] [changes=100000]
#
# The journal gets <todos> AddTodo entries (every even id tagged "x" and every third id due, on
# dates spread over 2026), then SetDone entries that mark todos done and open
# again until it holds <changes> entries in all; with the defaults, the odd ids end open. It is written directly in the documented
# action-log format; no snapshot is written, so the first command that changes the store replays
# the whole journal once and compacts it, as an upgraded or restored store would.
set -euo pipefail

store=${1:?usage: make-large-store.sh <store-dir> [todos] [changes]}
todos=${2:-10000}
changes=${3:-100000}

if [[ -e "$store/journal.jsonl" ]]; then
  echo "make-large-store.sh: $store already holds a store" >&2
  exit 1
fi
mkdir -p "$store"
awk -v todos="$todos" -v changes="$changes" 'BEGIN {
  print "{\"format\":\"statestore-action-log\",\"version\":1,\"app\":\"todo-cli\"}"
  for (seq = 1; seq <= todos; seq++) {
    extra = ""
    if (seq % 3 == 0) extra = sprintf(",\"due\":\"2026-%02d-%02d\"", (seq % 12) + 1, (seq % 28) + 1)
    if (seq % 2 == 0) extra = extra ",\"tags\":[\"x\"]"
    printf "{\"seq\":%d,\"type\":\"AddTodo\",\"payload\":{\"id\":%d,\"title\":\"Todo number %d\"%s}", seq, seq, seq, extra
    printf ",\"inverse\":{\"type\":\"RemoveTodo\",\"payload\":{\"id\":%d}}}\n", seq
  }
  # Round r sets todo id done when r + id is even, so the last round leaves the odd ids open.
  for (; seq <= changes; seq++) {
    id = (seq % todos) + 1
    round = int((seq - todos - 1) / todos)
    done = ((round + id) % 2 == 0) ? "true" : "false"
    before = (round == 0) ? "false" : (((round - 1 + id) % 2 == 0) ? "true" : "false")
    printf "{\"seq\":%d,\"type\":\"SetDone\",\"payload\":{\"done\":%s,\"id\":%d}", seq, done, id
    printf ",\"inverse\":{\"type\":\"SetDone\",\"payload\":{\"done\":%s,\"id\":%d}}}\n", before, id
  }
}' > "$store/journal.jsonl"
