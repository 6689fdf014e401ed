#!/usr/bin/env bash
# Opens a generated log of N entries (default 1,000,000; each a counter step with its diff) in
# statestore-inspect's terminal interface, under tmux, and prints how long the first screen and
# reading the log whole take, and the process's peak resident memory. Needs tmux and awk.
#
# Usage: scripts/inspect-large-log.sh [N]      (build first: swift build -c release)
set -euo pipefail
cd "$(dirname "$0")/.."

entries="${1:-1000000}"
binary="$PWD/.build/release/statestore-inspect"
[[ -x "$binary" ]] || { echo "build first: swift build -c release" >&2; exit 1; }
log="$(mktemp -d)/large.jsonl"
socket="inspect-large-$$"
cleanup() { tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$(dirname "$log")"; }
trap cleanup EXIT

awk -v n="$entries" 'BEGIN {
  print "{\"format\":\"statestore-action-log\",\"version\":1,\"state\":\"Counter\"}"
  print "{\"checkpoint\":0,\"state\":{\"n\":0}}"
  for (i = 1; i <= n; i++)
    printf "{\"seq\":%d,\"type\":\"Increment\",\"time\":%d.5,\"payload\":{\"by\":1},\"diff\":[{\"op\":\"replace\",\"path\":\"/n\",\"old\":%d,\"value\":%d}]}\n", i, i, i - 1, i
}' >"$log"
echo "$entries entries, $(wc -c <"$log") bytes"

now() { date +%s.%N; }
start="$(now)"
tmux -L "$socket" new-session -d -x 100 -y 30 "$binary --tui $log"
first=""
while true; do
  screen="$(tmux -L "$socket" capture-pane -p 2>/dev/null || true)"
  if [[ -z "$first" ]] && grep -q Increment <<<"$screen"; then
    first="$(now)"
    awk -v a="$start" -v b="$first" 'BEGIN { printf "first screen after %.2f s\n", b - a }'
  fi
  if [[ -n "$first" ]] && ! grep -q "reading the log" <<<"$screen"; then
    awk -v a="$start" -v b="$(now)" 'BEGIN { printf "read whole after %.2f s\n", b - a }'
    break
  fi
  sleep 0.05
done
pid="$(tmux -L "$socket" list-panes -F '#{pane_pid}')"
grep VmHWM "/proc/$pid/status" | awk '{ printf "peak resident memory %d MB\n", $2 / 1000 }'
tmux -L "$socket" send-keys q
