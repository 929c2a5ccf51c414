#!/usr/bin/env python3
"""docs/man/completion.py: writes the bash completion of the tracetune tools
from the man pages' sources (docs/man/*.md), the one text that
tests/docs/man.sh holds to the tools' own --help and output: each tool's
options and what each takes come from its OPTIONS, the parameter and
metric names from tt-sim(1), the values of a parameter that takes words
(order=, evict=, resize=, cache_place=, gittins_dist=) from its row there and
the preset names from its PRESETS, the formats from tt-ingest(1), the sections
from tt-stats(1), the kinds from tt-plot(1), and the cluster examples from
every page. The completion function itself is the text below.

Usage: completion.py DOCS_MAN_DIR > tracetune.bash
"""
import glob
import os
import re
import sys

FUNCTION = r'''
# _tt_words LIST...: the words of LIST that start with the word under the
# cursor, as COMPREPLY
_tt_words() { mapfile -t COMPREPLY < <(compgen -W "$*" -- "$_tt_cur"); }

_tt_complete() {
    local tool=${COMP_WORDS[0]##*/} i _tt_cur=${COMP_WORDS[COMP_CWORD]}
    local prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()
    # NAME=VALUE: bash splits the word at '=', so the value is a word of
    # its own after "=" (readline completes the text after '=', the word
    # "=" itself when nothing is typed yet); the values of a parameter that
    # takes words, after the last comma of a grid's or range's list;
    # nothing for numbers
    if [ "$_tt_cur" = "=" ] || [ "$prev" = "=" ]; then
        local k=$((COMP_CWORD - 1)) cur=$_tt_cur pre=""
        [ "$_tt_cur" = "=" ] && cur="" || k=$((COMP_CWORD - 2))
        local name=${COMP_WORDS[k]} how=${_tt_arg[$tool:${COMP_WORDS[k - 1]}]-}
        [[ $how == NAME=* ]] && [ -n "${_tt_values[$name]-}" ] || return 0
        [[ $how != NAME=VALUE && $cur == *,* ]] && pre=${cur%,*},
        local words=" ${_tt_values[$name]} "
        mapfile -t COMPREPLY < <(compgen -W "${words/ FILE / }" -P "$pre" -- "${cur##*,}")
        [[ $words == *" FILE "* ]] && compopt -o filenames &&
            mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur")
        return 0
    fi
    # the argument of an option, by what it takes
    local arg=${_tt_arg[$tool:$prev]-}
    if [ -n "${_tt_arg[$tool:$prev]+set}" ]; then
        case $arg in
        *'|'*) _tt_words "${arg//|/ }" ;;
        CLUSTER) _tt_words "$_tt_clusters"; mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$_tt_cur") ;;
        FORMAT) _tt_words "auto $_tt_formats" ;;
        SECTION) _tt_words "$_tt_sections" ;;
        NAME=*) _tt_words "${_tt_params//[[:space:]]/= }="; compopt -o nospace ;;
        NAME | METRIC) _tt_words "$_tt_params $_tt_metrics objective" ;;
        COLS) # a list: the columns after its last comma
            local pre=""
            [[ $_tt_cur == *,* ]] && pre=${_tt_cur%,*},
            mapfile -t COMPREPLY < <(compgen -W "$_tt_columns" -P "$pre" -- "${_tt_cur##*,}")
            compopt -o nospace ;;
        FILE | *.h5 | *.png* | FIG*) compopt -o filenames; mapfile -t COMPREPLY < <(compgen -f -- "$_tt_cur") ;;
        esac
        return 0
    fi
    if [[ $_tt_cur == -* ]]; then
        _tt_words "${_tt_opts[$tool]}"
        return 0
    fi
    # tt-plot's first word is the kind of figure
    if [ "$tool" = tt-plot ]; then
        for ((i = 1; i < COMP_CWORD; i++)); do
            [[ ${COMP_WORDS[i]} == -* ]] || [ -n "${_tt_arg[$tool:${COMP_WORDS[i - 1]}]+set}" ] || break
        done
        [ "$i" = "$COMP_CWORD" ] && { _tt_words "$_tt_kinds"; return 0; }
    fi
    compopt -o filenames
    mapfile -t COMPREPLY < <(compgen -f -- "$_tt_cur")
}
complete -F _tt_complete'''


def section(text, name):
    """The lines of the section ## name of a page."""
    m = re.search(r"^## %s\n(.*?)(?=^## |\Z)" % re.escape(name), text, re.M | re.S)
    if not m:
        sys.exit("completion: no section %s" % name)
    return m.group(1)


def first_cells(text, name):
    """The code spans of the first column of the table in section name."""
    rows = [l for l in section(text, name).split("\n") if l.startswith("| `")]
    return [w for r in rows for w in re.findall(r"`([^`]+)`", r.split("|")[1])]


def main():
    d = sys.argv[1]
    pages = {}
    for p in sorted(glob.glob(os.path.join(d, "*.md"))):
        with open(p, encoding="utf-8") as f:
            pages[os.path.basename(p)[:-3]] = f.read()
    out = ["# bash completion of the tracetune tools, written by docs/man/completion.py",
           "# from the man pages' sources (docs/man/*.md); do not edit",
           "declare -gA _tt_opts _tt_arg _tt_values"]
    tools = sorted(n[:-2] for n in pages if re.match(r"tt-[a-z]+\.1$", n))
    for t in tools:
        opts = []
        for line in section(pages[t + ".1"], "OPTIONS").split("\n"):
            for code in re.findall(r"^- ((?:`[^`]+`(?:, | \| | or )?)+):", line):
                for span in re.findall(r"`([^`]+)`", code):
                    words = span.split(" ")
                    opts.append(words[0])
                    if len(words) > 1:
                        out.append("_tt_arg[%s:%s]='%s'" % (t, words[0], words[1]))
        out.append("_tt_opts[%s]='%s'" % (t, " ".join(opts)))
    sim = pages["tt-sim.1"]
    params = [w for w in first_cells(sim, "PARAMETERS") if re.match(r"^[a-z0-9_]+$", w)]
    values = {}
    for row in section(sim, "PARAMETERS").split("\n"):
        cells = row.split("|")
        if len(cells) < 4 or not re.match(r"^ `[a-z_]+` $", cells[1]):
            continue
        name, default = cells[1].strip(" `"), cells[2].strip()
        default = default[1:-1] if re.match(r"^`[^`]+`$", default) else ""
        if not re.match(r"^[a-z][a-z-]*$", default) or default == "inf":
            continue  # a number: nothing to offer
        # the words the meaning says it takes: `word` (what...) or `word`: ...
        words = re.findall(r"`([a-z][a-z-]*)`(?: \(|:)", cells[3])
        values[name] = [default] + [w for w in words if w != default and w not in params]
        if re.search(r"\bor a file\b", cells[3]):
            values[name].append("FILE")  # and the files
    values["preset"] = re.findall(r"`([a-z][a-z0-9-]*)`\s+\(", section(sim, "PRESETS"))
    out += ["_tt_values[%s]='%s'" % (n, " ".join(v)) for n, v in sorted(values.items())]
    metrics = re.search(r"`([^`]+)`", section(sim, "METRICS")).group(1).split()
    columns = re.search(r"header line: `([^`]+)`", pages["tt-cat.1"]).group(1).split()
    clusters = sorted(set(re.findall(r"\b\d+x\d+x\d+\b", "\n".join(pages.values()))))
    out += ["_tt_params='%s'" % " ".join(params), "_tt_metrics='%s'" % " ".join(metrics),
            "_tt_columns='%s'" % " ".join(columns),
            "_tt_formats='%s'" % " ".join(first_cells(pages["tt-ingest.1"], "FORMATS")),
            "_tt_sections='%s'" % " ".join(first_cells(pages["tt-stats.1"], "SECTIONS")),
            "_tt_kinds='%s'" % " ".join(first_cells(pages["tt-plot.1"], "KINDS")),
            "_tt_clusters='%s'" % " ".join(clusters)]
    sys.stdout.write("\n".join(out) + FUNCTION + " " + " ".join(tools) + "\n")


if __name__ == "__main__":
    main()
