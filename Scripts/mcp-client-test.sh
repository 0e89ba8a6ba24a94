#!/usr/bin/env bash
# Checks `kanban mcp` with a client we did not write: the stdio client of PyPI's `mcp` package, installed in a
# virtual environment under .build/mcp-venv. Skips (exit 0, with the reason) where Python, venv or PyPI is missing.
# Prints `N passed, M failed` last and exits 1 when a check failed.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=$root/.build/mcp-venv

skip() {
    echo "mcp-client-test: skipped: $*"
    exit 0
}

python=$(command -v python3 || true)
[ -n "$python" ] || skip "python3 is not installed"
"$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' ||
    skip "the mcp package needs Python 3.10 or later ($("$python" --version 2>&1))"

if [ ! -x "$venv/bin/python" ]; then
    if ! "$python" -m venv "$venv" >/dev/null 2>&1; then
        rm -rf "$venv"
        # Debian and Ubuntu ship venv separately.
        if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
            apt-get install -y -qq python3-venv >/dev/null 2>&1 || true
        fi
        "$python" -m venv "$venv" >/dev/null 2>&1 || { rm -rf "$venv"; skip "cannot make a virtual environment (install python3-venv)"; }
    fi
fi
if ! "$venv/bin/python" -c 'import mcp' 2>/dev/null; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check mcp >/dev/null 2>&1 ||
        skip "cannot install the mcp package from PyPI (no network?)"
fi

binary=${KANBAN_BINARY:-$root/.build/debug/kanban}
if [ ! -x "$binary" ]; then
    swift build --product kanban >/dev/null || { echo "mcp-client-test: cannot build kanban"; echo "0 passed, 1 failed"; exit 1; }
fi
echo "mcp-client-test: mcp $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))') against $binary"
exec "$venv/bin/python" "$root/Scripts/mcp_client_test.py" "$binary" "$root/SampleBoards/product-launch"
