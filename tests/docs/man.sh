#!/usr/bin/env bash
# tests/docs/man.sh MANDIR: the man pages written from docs/man/*.md
# (docs/man/md2man.py) into MANDIR cannot drift from the tools: every tool
# in TT_BIN has a page; its SYNOPSIS is the usage that --help prints; the
# options its --help names (in the usage, at the start of an option line,
# and on the -h line) are exactly those its OPTIONS list; the formats,
# sections, kinds, parameters, metrics and columns the pages list (the
# bash completion's words) are the tools'; and every page, tools' or not,
# renders with man -l and groff -ww without a warning.
set -uo pipefail
cd "$(dirname "$0")/../.."
mandir=${1:?MANDIR}
: "${TT_BIN:?set TT_BIN to the bin/ folder}"
bad=0
fail() { echo "man: $*" >&2; bad=1; }

# opts: option names, one a line, sorted, from text on stdin
opts() { grep -oE -- '(^|[][ |,(])--?[A-Za-z0-9][A-Za-z0-9-]*' | sed -E 's/^[][ |,(]//' | sort -u; }
# the options --help names: the usage block, the leading options of each
# option line, and the line of -h (--help, --version)
help_opts() {
    {
        awk 'NR == 1, /^$/' "$1"
        grep -E '^ +-' "$1" | sed -E 's/^ +((-[^ ,]+)(, -[^ ,]+)*).*/\1/'
        grep -E '^ +-h, --help' "$1"
    } | opts
}
# the options a page's OPTIONS section lists: the tags of its items
page_opts() {
    awk '/^## / { on = ($0 == "## OPTIONS") } on && /^- `-/' "$1" | sed -E 's/^- ((`[^`]*`(, | \| | or )?)+):.*/\1/' |
        tr -d '`' | opts
}
# the usage --help prints, as the SYNOPSIS writes it: without "usage: ",
# its continuation lines moved left as far
help_usage() { awk 'NR == 1, /^$/' "$1" | sed -E '/^$/d; 1s/^usage: //; 2,$s/^       //'; }
page_synopsis() { awk '/^## / { on = ($0 == "## SYNOPSIS") } on' "$1" | awk '/^```/ { n++; next } n == 1'; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for tool in "$TT_BIN"/tt-*; do
    t=$(basename "$tool")
    src=docs/man/$t.1.md
    [ -f "$src" ] || { fail "$t: no page (docs/man/$t.1.md)"; continue; }
    "$tool" --help >"$tmp/help" || fail "$t --help exited $?"
    [ "$(help_usage "$tmp/help")" = "$(page_synopsis "$src")" ] ||
        fail "$t: the SYNOPSIS of $src is not the usage of --help:$(diff <(help_usage "$tmp/help") <(page_synopsis "$src") | sed 's/^/    /')"
    help_opts "$tmp/help" >"$tmp/h"
    page_opts "$src" >"$tmp/p"
    [ -s "$tmp/h" ] || fail "$t: no option found in --help"
    only_help=$(comm -23 "$tmp/h" "$tmp/p" | tr '\n' ' ')
    only_page=$(comm -13 "$tmp/h" "$tmp/p" | tr '\n' ' ')
    [ -z "$only_help" ] || fail "$t: in --help but not in OPTIONS of $src: $only_help"
    [ -z "$only_page" ] || fail "$t: in OPTIONS of $src but not in --help: $only_page"
    n=$((n + 1))
done
# the names the pages list (and the bash completion takes from them) are
# the tools' own: formats, sections, kinds in --help; parameters, metrics
# and trace columns in the header lines tt-sim and tt-cat print
first_cells() { awk -v s="## $2" '/^## / { on = ($0 == s) } on && /^\| `/' "$1" | cut -d'|' -f2 | grep -o '`[^`]*`' | tr -d '`' | xargs; }
same() { [ "$2" = "$3" ] || fail "$1: the page lists '$3', the tool '$2'"; }
"$TT_BIN/tt-ingest" --help | awk '/^  -f /, /^  -m /' | sed -nE 's/^ {16}([a-z0-9-]+) .*/\1/p' | xargs >"$tmp/x"
same "tt-ingest(1) FORMATS" "$(cat "$tmp/x")" "$(first_cells docs/man/tt-ingest.1.md FORMATS)"
"$TT_BIN/tt-stats" --help | sed -nE 's/^ {16}([a-z]+) .*/\1/p' | xargs >"$tmp/x"
same "tt-stats(1) SECTIONS" "$(cat "$tmp/x")" "$(first_cells docs/man/tt-stats.1.md SECTIONS)"
"$TT_BIN/tt-plot" --help | sed -nE '1s/^usage: tt-plot ([a-z|]+) .*/\1/p' | tr '|' ' ' >"$tmp/x"
same "tt-plot(1) KINDS" "$(cat "$tmp/x")" "$(first_cells docs/man/tt-plot.1.md KINDS)"
"$TT_BIN/tt-ingest" -q -o "$tmp/ex.h5" data/example.tsv || fail "tt-ingest data/example.tsv"
"$TT_BIN/tt-sim" -c 2x4x8 "$tmp/ex.h5" 2>/dev/null | head -1 | tr '\t' ' ' >"$tmp/x"
same "tt-sim(1) PARAMETERS and METRICS" "$(cat "$tmp/x")" \
    "$(first_cells docs/man/tt-sim.1.md PARAMETERS | tr ' ' '\n' | grep -v '[A-Z]' | xargs) $(awk '/^## / { on = ($0 == "## METRICS") } on' docs/man/tt-sim.1.md | tr '\n' ' ' | grep -o '`[^`]*`' | head -1 | tr -d '`' | xargs)"
"$TT_BIN/tt-cat" "$tmp/ex.h5" | head -1 | tr '\t' ' ' >"$tmp/x"
same "tt-cat(1) columns" "$(cat "$tmp/x")" "$(grep -o 'header line: `[^`]*`' docs/man/tt-cat.1.md | cut -d'`' -f2)"

pages=0
for src in docs/man/*.md; do
    page=$mandir/$(basename "$src" .md)
    [ -f "$page" ] || { fail "$src: no $page (make man)"; continue; }
    err=$(MANWIDTH=80 man -l "$page" 2>&1 >/dev/null)
    [ -z "$err" ] || fail "$page: man -l warns: $err"
    err=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
    [ -z "$err" ] || fail "$page: groff -ww warns: $err"
    pages=$((pages + 1))
done
[ $bad = 0 ] && echo "man: $pages pages render without warnings; $n tools' SYNOPSIS and OPTIONS match their --help"
exit $bad
