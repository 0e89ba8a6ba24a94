#!/usr/bin/env bash
# Loads `kanban serve` the way an attacker with no token can, on loopback only, bounded in count and time:
# 1,100 idle connections under `ulimit -n 1024` (a desktop's default) then a normal request, which must be answered
# within 1 s; 50 connections sending only blank lines for 5 s, with the server's resident memory growing less than
# 20 MB. Needs only python3's standard library; skips (exit 0, with the reason) where python3 is missing.
# Prints `N passed, M failed` last and exits 1 when a check failed.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
python=$(command -v python3 || true)
[ -n "$python" ] || { echo "serve-load-test: skipped: python3 is not installed"; exit 0; }
binary=${KANBAN_BINARY:-$root/.build/debug/kanban}
if [ ! -x "$binary" ]; then
    swift build --product kanban >/dev/null || { echo "serve-load-test: cannot build kanban"; echo "0 passed, 1 failed"; exit 1; }
fi
exec "$python" "$root/Scripts/serve_load_test.py" "$binary" "$root/SampleBoards/product-launch"
