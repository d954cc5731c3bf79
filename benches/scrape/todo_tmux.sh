#!/usr/bin/env bash
# The todo task done by screen scraping, the way agents drive TUIs without taria: the
# app in a tmux pane, `tmux send-keys` to type, `tmux capture-pane -p` to see.
#
#   benches/scrape/todo_tmux.sh [path/to/todo]     (default: target/debug/examples/todo)
#
# The task is the one `benches/mcp/todo_task.py` gives an agent through taria: add
# "ship v0", mark it done, switch to the Done filter and see it there, delete it and
# confirm. Each tmux command is one tool call; the bytes are what the captures return
# (send-keys returns nothing). A capture is taken after each step, as an agent must to
# know where it stands; a step's check that fails is retried with another capture
# (counted), up to 50 times (10 s). Prints `calls=<n> bytes=<m>`; exits 1 if a step never
# shows what it should.
set -euo pipefail
cd "$(dirname "$0")/../.."

app=${1:-${CARGO_TARGET_DIR:-target}/debug/examples/todo}
[ -x "$app" ] || { echo "$app is not built: cargo build --example todo" >&2; exit 2; }
command -v tmux >/dev/null || { echo "tmux is not installed (apt-get install tmux)" >&2; exit 2; }

session="taria-scrape-$$"
socket_dir=$(mktemp -d)
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$socket_dir"' EXIT
# A private TARIA_SOCKET so a running todo demo is not disturbed; nothing connects to it.
tmux new-session -d -s "$session" -x 100 -y 30 "TARIA_SOCKET=$socket_dir/todo.sock $app"

calls=0
bytes=0
screen=""

capture() {
    calls=$((calls + 1))
    screen=$(tmux capture-pane -p -t "$session")
    bytes=$((bytes + $(printf '%s\n' "$screen" | wc -c)))
}

send() {
    calls=$((calls + 1))
    tmux send-keys -t "$session" "$@"
}

# Captures (after a pause for the app to redraw) until the screen shows $1.
expect() {
    for _ in $(seq 50); do
        sleep 0.2
        capture
        if grep -qF -- "$1" <<<"$screen"; then
            return 0
        fi
    done
    echo "step failed: the screen never showed: $1" >&2
    printf '%s\n' "$screen" >&2
    exit 1
}

expect "Write the README"           # see the app
send a                              # start adding
send "ship v0" Enter                # type the title, submit
expect "[ ] ship v0"                # it is the 4th task
send Down Down Down                 # select it (the selection starts on the 1st)
send Space                          # mark it done
expect "[x] ship v0"
send Tab Tab                        # the Done filter
expect "> [x] ship v0"              # shown there, and selected
send d                              # delete it
expect "Delete this task?"
send y                              # confirm
expect "Deleted the task"
if grep -qF "ship v0" <<<"$screen"; then
    echo "step failed: ship v0 is still shown" >&2
    exit 1
fi
echo "calls=$calls bytes=$bytes"
