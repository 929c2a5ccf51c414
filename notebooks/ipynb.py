#!/usr/bin/env python3
"""Writes each notebook NAME.ipynb (nbformat 4, no outputs) from its source
NAME.py in the percent format: cells open with '# %%' (code) or
'# %% [markdown]' (text, each line's '# ' removed). The .py files are what is
edited and reviewed; they also run as plain scripts, so every line of a text
cell is a comment. With --check, writes nothing and fails if a source does
not compile as Python or has a text line that is not a comment, or a stored
notebook is not its source's or holds outputs.

    notebooks/ipynb.py [--check] [NAME.py...]   (default: every notebooks/*.py source)
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = ("trace-tour.py", "network-sensitive-study.py")


def cells(text):
    out, kind, lines = [], None, []

    def flush():
        while lines and not lines[-1].strip():
            lines.pop()
        if kind is None:
            return
        src = [l[2:] if l.startswith("# ") else l.lstrip("#") for l in lines] if kind == "markdown" else lines
        cell = {"cell_type": kind, "id": f"cell-{len(out)}", "metadata": {}, "source": [l + "\n" for l in src[:-1]] + src[-1:]}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        out.append(cell)

    for line in text.splitlines():
        if line.startswith("# %%"):
            flush()
            kind, lines = ("markdown" if "[markdown]" in line else "code"), []
        elif kind is not None and (lines or line.strip()):
            lines.append(line)
    flush()
    return out


def notebook(text):
    return {"cells": cells(text), "metadata": {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5}


def dumps(nb):
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def script_errors(text, name):
    """Why a source does not run as a script: a text cell's line that is not
    a comment, a syntax error; [] when it does."""
    out, kind = [], None
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("# %%"):
            kind = "markdown" if "[markdown]" in line else "code"
        elif kind == "markdown" and line.strip() and not line.startswith("#"):
            out.append(f"{name}:{n}: a text cell's line without '# ': {line[:60]!r}")
    try:
        compile(text, name, "exec")
    except SyntaxError as e:
        out.append(f"{name}:{e.lineno}: does not run as a script: {e.msg}")
    return out


def clean(path):
    """Why a stored notebook is not clean, or None."""
    nb = json.load(open(path))
    for i, c in enumerate(nb["cells"]):
        if c.get("outputs") or c.get("execution_count") is not None:
            return f"cell {i} has outputs or an execution_count"
    return None


def main(argv):
    check = "--check" in argv
    srcs = [a for a in argv if a != "--check"] or [os.path.join(HERE, s) for s in SOURCES]
    bad = 0
    for src in srcs:
        dst = src[:-3] + ".ipynb"
        text = open(src).read()
        want = dumps(notebook(text))
        for why in script_errors(text, os.path.relpath(src)):
            print(f"ipynb: {why}", file=sys.stderr)
            bad = 1
        if not check:
            with open(dst + ".tmp", "w") as f:
                f.write(want)
            os.replace(dst + ".tmp", dst)
            continue
        if not os.path.exists(dst):
            why = "missing"
        else:
            why = clean(dst) or (None if open(dst).read() == want else
                                 f"not the notebook of {os.path.basename(src)} (run notebooks/ipynb.py)")
        if why:
            print(f"ipynb: {os.path.relpath(dst)}: {why}", file=sys.stderr)
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
