#!/usr/bin/env bash
# Browser tests of `kanban serve`'s page: headless Chromium driven by Selenium (Scripts/browser_test.py)
# against a real `kanban serve` on a copy of SampleBoards/product-launch in a temporary git repository.
# Installs Chromium, its driver and Selenium when it can (apt as root, pip into .build/browser-venv);
# where it cannot, it says why and exits 0. Exits non-zero when a case fails. Also saves docs/serve.png.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)

skip() {
    echo "browser tests skipped: $*"
    exit 0
}

find_chromium() {
    for name in chromium chromium-browser google-chrome; do
        if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return 0; fi
    done
    return 1
}

if ! find_chromium >/dev/null || ! command -v chromedriver >/dev/null 2>&1 || ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing chromium, chromium-driver and python3-venv with apt-get"
        if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver python3-venv >/dev/null; }; then
            skip "apt-get could not install chromium (no network?)"
        fi
    fi
fi
chromium=$(find_chromium) || skip "no chromium (install chromium and chromium-driver, or run as root with apt)"
command -v chromedriver >/dev/null 2>&1 || skip "no chromedriver (install chromium-driver)"

venv=.build/browser-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import selenium' 2>/dev/null; then
    echo "installing selenium into $venv"
    mkdir -p .build
    python3 -m venv "$venv" || skip "python3 cannot make a venv (install python3-venv)"
    "$venv/bin/pip" install -q selenium || skip "pip could not install selenium (no network?)"
fi

echo "building kanban"
swift build --product kanban
kanban="$(swift build --product kanban --show-bin-path)/kanban"

work=$(mktemp -d)
server=""
readonly_server=""
big_server=""
boards_server=""
cleanup() {
    for pid in $server $readonly_server $big_server $boards_server; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

board="$work/board"
cp -R SampleBoards/product-launch "$board"
git -C "$board" init -q -b main
git -C "$board" -c user.name=Test -c user.email=test@example.com add -A
git -C "$board" -c user.name=Test -c user.email=test@example.com commit -q -m "The sample board"

# Starts `kanban serve ARGS...` on the board; sets $pid and $url (from its first line: serving "T" at URL).
start_server() {
    local name=$1; shift
    (cd "$board" && exec "$kanban" serve --no-open --port 0 "$@") >"$work/$name.out" 2>"$work/$name.err" &
    pid=$!
    url=""
    local line=""
    for _ in $(seq 1 100); do
        line=$(head -n 1 "$work/$name.out" 2>/dev/null || true)
        if [[ "$line" =~ (http://[^[:space:]]+) ]]; then url=${BASH_REMATCH[1]}; break; fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if [ -z "$url" ]; then
        echo "kanban serve $* did not start:" >&2
        cat "$work/$name.out" "$work/$name.err" >&2
        echo "0 passed, 1 failed"
        exit 1
    fi
    echo "$line"
}

start_server serve
server=$pid
main_url=$url
start_server readonly --read-only
readonly_server=$pid
readonly_url=$url

# A board of 10,000 cards (8,000 of them in two columns), for the page's speed.
big="$work/big"
cp -R SampleBoards/product-launch "$big"
python3 - "$big" <<'PY'
import os, sys
for column, count in (("todo", 5000), ("in-progress", 3000), ("done", 2000)):
    for index in range(count):
        with open(os.path.join(sys.argv[1], "cards", column, f"card-{column}-{index:05d}.md"), "w") as file:
            file.write(f"---\ntitle: Card {index} of {column}\ncolumn: {column}\nposition: b{index:05d}\n"
                       f"labels: [feature]\n---\n\nThe text of card {index}.\n")
PY
board="$big" start_server big
big_server=$pid
big_url=$url

# Two boards in one directory, for the picker: a copy of the sample board and a small one made here.
boards="$work/boards"
mkdir -p "$boards"
cp -R SampleBoards/product-launch "$boards/lumen"
"$kanban" init "$boards/side" --title "Side <b>board</b>" --columns "todo:To Do,done:Done" >/dev/null
"$kanban" --board "$boards/side" add "First side card" >/dev/null
"$kanban" --board "$boards/side" add "Second side card" >/dev/null
start_server boards "$boards"
boards_server=$pid
boards_url=$url

mkdir -p Docs
# A browser that hangs must not hold CI: the cases take under a minute.
limit=()
if command -v timeout >/dev/null 2>&1; then limit=(timeout 600); fi
status=0
CHROMEDRIVER="$(command -v chromedriver)" READONLY_URL="$readonly_url" BIG_URL="$big_url" BIG_BOARD="$big" \
    BOARDS_URL="$boards_url" BOARDS_DIR="$boards" \
    ${limit[@]+"${limit[@]}"} "$venv/bin/python" Scripts/browser_test.py "$main_url" "$board" "$root/docs/serve.png" \
    | tee "$work/results" || status=$?
if ! tail -n 1 "$work/results" | grep -Eq '^[0-9]+ passed, [0-9]+ failed$'; then
    echo "the browser tests stopped before the end (status $status)"
    echo "0 passed, 1 failed"
    [ "$status" != 0 ] || status=1
fi
if [ "$status" != 0 ] && [ -s "$work/serve.err" ]; then
    echo "kanban serve said:" >&2
    tail -n 20 "$work/serve.err" >&2
fi
exit "$status"
