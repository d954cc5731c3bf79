#!/usr/bin/env bash
# probe.py inside a private D-Bus session with AT-SPI turned on, as a desktop with a
# screen reader running has it: `run.sh APP [ARGS...]`.
#
# Needs Debian's python3-pyatspi, at-spi2-core, dbus-daemon and dbus-bin (.ci/run
# installs them). Nothing of the user's session is touched: a bus of its own
# (dbus-run-session), its own runtime directory (the AT-SPI bus's socket is a fixed
# path under it), and settings in memory (at-spi-bus-launcher writes the
# accessibility setting to GSettings).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
runtime="$(mktemp -d)"
trap 'rm -rf "$runtime"' EXIT
export XDG_RUNTIME_DIR="$runtime" GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1
unset DBUS_SESSION_BUS_ADDRESS AT_SPI_BUS_ADDRESS
exec dbus-run-session -- bash -c '
    set -e
    # What a screen reader does when it starts: org.a11y.Status.IsEnabled = true.
    # This also starts the AT-SPI bus; its registry starts on first use.
    dbus-send --session --print-reply=literal --dest=org.a11y.Bus /org/a11y/bus \
        org.freedesktop.DBus.Properties.Set \
        string:org.a11y.Status string:IsEnabled variant:boolean:true >/dev/null
    exec /usr/bin/python3 "$0" "$@"
' "$here/probe.py" "$@"
