#!/usr/bin/env bash
# Installs the MCP hosts the host harness runs (run.py), at the versions pinned beside
# this script, into ${TARIA_HOSTS_DIR:-$HOME/.cache/taria-hosts}, never into the system
# Python or a global npm prefix:
#   npm/        Claude Code, Codex, gemini-cli, the Vercel AI SDK (npm ci of npm/package-lock.json)
#   venv-NAME/  one venv per Python framework (python/NAME.txt, locked with uv pip compile
#               from python/NAME.in): openai-agents, langchain, pydantic-ai, fast-agent
#   tools/      a venv holding uv, which builds and syncs the others
# Idempotent: a part whose pinned files have not changed since it was installed is left
# as it is (a second run takes about a second). Needs node/npm and python3 (3.11, as on
# the machine); fast-agent needs a Python >= 3.12, looked for on PATH and under pyenv.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${TARIA_HOSTS_DIR:-$HOME/.cache/taria-hosts}"
mkdir -p "$dir"
export UV_CACHE_DIR="$dir/uv-cache" UV_PYTHON_DOWNLOADS=never UV_NO_PROGRESS=1
UV_VERSION=0.13.9

# The hash of the files a part is installed from (and how), so a change reinstalls it.
stamp_of() { cat "$@" | sha256sum | cut -c1-16; }
fresh() { [ -f "$dir/$1.stamp" ] && [ "$(cat "$dir/$1.stamp")" = "$2" ]; }

# npm: the hosts and the AI SDK, exactly as package-lock.json has them.
npm_stamp="$(stamp_of "$here/npm/package.json" "$here/npm/package-lock.json" <(node --version))"
if fresh npm "$npm_stamp" && [ -x "$dir/npm/node_modules/.bin/claude" ]; then
    echo "npm hosts: up to date"
else
    echo "npm hosts: installing (npm ci)"
    mkdir -p "$dir/npm"
    cp "$here/npm/package.json" "$here/npm/package-lock.json" "$dir/npm/"
    # Install scripts run: Claude Code's postinstall puts its native binary in place.
    (cd "$dir/npm" && npm ci --no-audit --no-fund --loglevel=error 2>&1 | grep -v EBADENGINE || true)
    [ -x "$dir/npm/node_modules/.bin/claude" ] || { echo "npm ci failed" >&2; exit 1; }
    echo "$npm_stamp" >"$dir/npm.stamp"
fi

# uv, in a venv of its own.
if [ ! -x "$dir/tools/bin/uv" ] || [ "$("$dir/tools/bin/uv" --version | cut -d' ' -f2)" != "$UV_VERSION" ]; then
    echo "uv: installing $UV_VERSION"
    python3 -m venv "$dir/tools"
    "$dir/tools/bin/pip" install --quiet --disable-pip-version-check "uv==$UV_VERSION"
fi
uv="$dir/tools/bin/uv"

# A Python of at least 3.$1: on PATH (python3.N), else pyenv's.
python_at_least() {
    local minor candidate
    for minor in 11 12 13 14; do
        [ "$minor" -ge "$1" ] || continue
        for candidate in "$(command -v "python3.$minor" || true)" \
            "$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3."$minor".*/bin/python3 2>/dev/null | sort -V | tail -1)"; do
            # (a pyenv shim of a version that is not selected is there, but fails)
            if [ -n "$candidate" ] && "$candidate" -c 'import venv' 2>/dev/null; then
                echo "$candidate"
                return 0
            fi
        done
    done
    return 1
}

venv() { # NAME MINOR: venv-NAME from python/NAME.txt, with a Python >= 3.MINOR
    local name="$1" python stamp
    if ! python="$(python_at_least "$2")"; then
        echo "$name: no Python >= 3.$2 found (PATH, pyenv): not installed" >&2
        return 0
    fi
    stamp="$(stamp_of "$here/python/$name.txt" <(echo "$python"; "$python" --version))"
    if fresh "venv-$name" "$stamp" && [ -x "$dir/venv-$name/bin/python" ]; then
        echo "$name: up to date"
        return 0
    fi
    echo "$name: installing into venv-$name ($("$python" --version))"
    rm -rf "$dir/venv-$name"
    "$uv" venv --quiet --python "$python" "$dir/venv-$name"
    VIRTUAL_ENV="$dir/venv-$name" "$uv" pip sync --quiet "$here/python/$name.txt"
    echo "$stamp" >"$dir/venv-$name.stamp"
}

venv openai-agents 11
venv langchain 11
venv pydantic-ai 11
venv fast-agent 12
echo "hosts installed in $dir"
