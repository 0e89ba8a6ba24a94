#!/bin/sh
# Builds kanban-bench in release mode and runs it; arguments are passed on (see --help).
# KANBAN_BENCH_SCRATCH=<dir> builds in that scratch directory instead of .build.
set -eu
cd "$(dirname "$0")/.."
if [ -n "${KANBAN_BENCH_SCRATCH:-}" ]; then
    swift build -c release --scratch-path "$KANBAN_BENCH_SCRATCH" --product kanban-bench
    exec "$KANBAN_BENCH_SCRATCH/release/kanban-bench" "$@"
fi
exec swift run -c release kanban-bench "$@"
