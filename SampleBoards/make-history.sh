#!/bin/sh
# Makes a git repository in DIR holding the sample board with a history to measure (docs/report.md): every
# card is committed on its `created` time, in To Do (Backlog for the backlog's cards), then moved column by column
# with `git mv` until it reaches the column it is in now, the moves spread up to its `modified` time; archived cards
# are archived on the day their file name gives. One card goes back from Review for more work. A card's moves are
# committed by one of three people, chosen by its slug, and an infra card's by an agent (a `Kanban-Agent:` trailer,
# as `kanban` writes with KANBAN_AGENT set). Commit dates are the changes' times, so the history is the same on
# every run. Needs git and GNU date.
#
#   sh SampleBoards/make-history.sh /tmp/lumen && kanban --board /tmp/lumen report --until 2026-11-22
set -eu
source_board=$(cd "$(dirname "$0")/product-launch" && pwd)
target=${1:?usage: make-history.sh DIR}
mkdir -p "$target"
cd "$target"
git init --quiet
git config user.name "Mei Tanaka"
git config user.email mei@example.com
events=$(mktemp)
trap 'rm -f "$events"' EXIT

at() { date -u -d "$1" +%s; }
columns="backlog todo in-progress review done"
index_of() { i=0; for c in $columns; do [ "$c" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo 0; }
column_at() { n=$1; set -- $columns; shift "$n"; echo "$1"; }

first=$(at 2026-10-01T08:00:00Z)
echo "$first board" >> "$events"
for file in "$source_board"/cards/*/*.md "$source_board"/archive/*.md; do
    slug=$(basename "$file" .md)
    final=$(sed -n 's/^column: *//p' "$file" | head -n 1)
    archived=""
    case "$file" in */archive/*) archived=$(echo "$slug" | cut -c1-10); slug=$(echo "$slug" | cut -c12-) ;; esac
    created=$(at "$(sed -n 's/^created: *//p' "$file")")
    modified=$(at "$(sed -n 's/^modified: *//p' "$file")")
    [ "$modified" -gt "$created" ] || modified=$((created + 86400))
    start=todo
    [ "$final" = backlog ] && start=backlog
    echo "$created add $slug $start $file" >> "$events"
    from=$(index_of "$start")
    to=$(index_of "$final")
    steps=$((to - from))
    step=1
    while [ "$step" -le "$steps" ]; do
        # The last move at `modified`, the others spread before it, the first waiting longest.
        time=$((created + (modified - created) * (step * step + step) / (steps * steps + steps)))
        echo "$time move $slug $(column_at $((from + step)))" >> "$events"
        step=$((step + 1))
    done
    if [ "$slug" = crash-on-launch-corrupted-thumbnail-cache ]; then
        echo "$((modified + 3600)) move $slug review" >> "$events"
        echo "$((modified + 90000)) move $slug in-progress" >> "$events"
    fi
    [ -n "$archived" ] && echo "$(at "${archived}T17:00:00Z") archive $slug $archived" >> "$events"
done

commit() {
    GIT_AUTHOR_DATE="@$1 +0000" GIT_COMMITTER_DATE="@$1 +0000" git commit --quiet -m "$2"
}
# Who moves a card: a person chosen by its slug; an agent for infra cards.
mover() {
    set -- "Ana Costa" "Mei Tanaka" "Tomás Ruiz" "$(printf '%s' "$1" | cksum | cut -d' ' -f1)"
    shift $(($4 % 3))
    echo "$1"
}
sort -n -k1,1 -s "$events" | while read -r time action slug place file; do
    case "$action" in
    board)
        cp "$source_board/board.md" board.md
        git add board.md
        commit "$time" "Start the board"
        ;;
    add)
        mkdir -p "cards/$place"
        sed "s/^column: .*/column: $place/" "$file" > "cards/$place/$slug.md"
        git add "cards/$place/$slug.md"
        commit "$time" "Add $slug"
        ;;
    move)
        old=$(ls cards/*/"$slug.md")
        mkdir -p "cards/$place"
        git mv "$old" "cards/$place/$slug.md"
        sed -i "s/^column: .*/column: $place/" "cards/$place/$slug.md"
        git add "cards/$place/$slug.md"
        if grep -q '^labels:.*infra' "cards/$place/$slug.md"; then
            GIT_AUTHOR_NAME="Mei Tanaka" commit "$time" "Move $slug to $place

Kanban-Agent: build-bot"
        else
            GIT_AUTHOR_NAME="$(mover "$slug")" commit "$time" "Move $slug to $place"
        fi
        ;;
    archive)
        old=$(ls cards/*/"$slug.md")
        mkdir -p archive
        git mv "$old" "archive/$place-$slug.md"
        commit "$time" "Archive $slug"
        ;;
    esac
done
echo "made $(git rev-list --count HEAD) commits in $target"
