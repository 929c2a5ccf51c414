#!/usr/bin/env python3
"""The mutants of tests/mutants/mutants.txt: list them, or apply one to a
copy of the tree (tests/mutants/run.sh, make mutants).

A mutant is a record of `key: value` lines, records apart by a blank
line, `#` lines ignored:

    name: canon-load_bw           a name of its own
    file: libcore/sim/canon.c     the file it changes
    in: void tt_canon_form(       optional: the text `from` is looked for after
                                  (it must occur once in the file)
    from: q.load_bw = p->load_bw; the text it replaces: its first occurrence
                                  after `in`, or its only one in the file
    to:                           what replaces it (may be empty)
    e2e: dedup                    optional: the end-to-end scripts t_NAME.sh
                                  that run when the unit tests pass it
    equivalent: WHY               optional: the mutant is argued equivalent
                                  (it cannot change a result, WHY says why):
                                  the pass checks that it still applies and
                                  reports it as such, without running it

The text is found by content, never by line number, so a mutant outlives
edits elsewhere in its file; one whose text is gone says so (exit 3)
instead of mutating something else.

    mutate.py LIST names [GLOB...]      the names, in order, that match
    mutate.py LIST show NAME            file and e2e scripts, tab-separated
    mutate.py LIST why NAME             the equivalence argument (empty: none)
    mutate.py LIST apply NAME ROOT      applies NAME to the tree at ROOT
"""
import fnmatch
import os
import sys


def parse(path):
    mutants, cur = [], {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("#"):
                continue
            if not line.strip():
                if cur:
                    mutants.append(cur)
                cur = {}
                continue
            key, sep, value = line.partition(":")
            if not sep or key not in ("name", "file", "in", "from", "to", "e2e", "equivalent"):
                sys.exit(f"{path}:{n}: expected 'key: value', key one of name file in from to e2e equivalent")
            if key in cur:
                sys.exit(f"{path}:{n}: '{key}' given twice")
            cur[key] = value[1:] if value.startswith(" ") else value
            cur.setdefault("line", n)
    if cur:
        mutants.append(cur)
    seen = set()
    for m in mutants:
        for key in ("name", "file", "from", "to"):
            if key not in m:
                sys.exit(f"{path}:{m['line']}: a mutant without '{key}'")
        if m["name"] in seen:
            sys.exit(f"{path}:{m['line']}: mutant '{m['name']}' twice")
        seen.add(m["name"])
    return mutants


def find(mutants, name):
    for m in mutants:
        if m["name"] == name:
            return m
    sys.exit(f"no mutant '{name}'")


def apply(m, root):
    path = os.path.join(root, m["file"])
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start = 0
    if m.get("in"):
        if text.count(m["in"]) != 1:
            print(f"{m['name']}: '{m['in']}' occurs {text.count(m['in'])} times in {m['file']}",
                  file=sys.stderr)
            return 3
        start = text.index(m["in"])
    at = text.find(m["from"], start)
    if at < 0 or (not m.get("in") and text.count(m["from"]) != 1):
        print(f"{m['name']}: '{m['from']}' occurs {text.count(m['from'])} times in {m['file']}"
              + (" (none after 'in')" if m.get("in") and at < 0 else ""), file=sys.stderr)
        return 3
    text = text[:at] + m["to"] + text[at + len(m["from"]):]
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    mutants = parse(argv[1])
    cmd = argv[2]
    if cmd == "names":
        globs = argv[3:] or ["*"]
        for m in mutants:
            if any(fnmatch.fnmatchcase(m["name"], g) for g in globs):
                print(m["name"])
        return 0
    if cmd == "show" and len(argv) == 4:
        m = find(mutants, argv[3])
        print(f"{m['file']}\t{m.get('e2e', '')}")
        return 0
    if cmd == "why" and len(argv) == 4:
        print(find(mutants, argv[3]).get("equivalent", ""))
        return 0
    if cmd == "apply" and len(argv) == 5:
        return apply(find(mutants, argv[3]), argv[4])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
