#!/usr/bin/env python3
"""docs/man/md2man.py: writes a man page (roff, the man macros) from its
source in docs/man/NAME.SECTION.md, so that one text is both the page that
`man` shows and the reference read on the web. Only the Markdown these
sources use is understood, and anything else is an error rather than a
page that renders wrongly:

  # name(1) -- one line on what it is     the title, first line
  ## HEADING / ### Heading                 .SH / .SS
  a paragraph                              .PP, lines joined
  ```sh ... ```                            a literal block, indented
  - `-x ARG`, `--long ARG`: text           a tagged paragraph (.TP): options
  - text                                   a bullet (.IP), continued by
                                           lines indented two spaces
  | a | b | c |  (header, rule, rows)      one tagged paragraph a row:
                                           the first cell the tag, each
                                           other cell under its header
  `code`, **bold**, *italic*, [text](url)  bold, bold, italic, text

Usage: md2man.py SOURCE.md VERSION > PAGE
"""
import re
import sys


def escape(text):
    """Roff-safe text: backslashes, minus signs, and any character past
    ASCII as a groff \\[uXXXX] escape, so no input encoding is assumed."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\e")
        elif ch == "-":
            out.append("\\-")
        elif ord(ch) > 126:
            out.append("\\[u%04X]" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(([^)]+)\)")


def inline(text):
    """Markdown inline markup as roff font changes."""
    out, pos = [], 0
    for m in INLINE.finditer(text):
        out.append(escape(text[pos:m.start()]))
        code, bold, ital, link = m.group(1), m.group(2), m.group(3), m.group(4)
        if code is not None:
            # a long list in one span (a CSV header) may break after a comma
            out.append("\\fB" + escape(code).replace(",", ",\\:") + "\\fR")
        elif bold is not None:
            out.append("\\fB" + inline(bold) + "\\fR")
        elif ital is not None:
            out.append("\\fI" + inline(ital) + "\\fR")
        else:
            out.append(inline(link))
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out)


def line(text):
    """A text line: one that starts with a control character is made
    plain with \\&."""
    return "\\&" + text if text[:1] in (".", "'") else text


def tag(text):
    """An option's tag: options bold, their arguments italic, the rest as
    written (`-c CLUSTER`, `--version`)."""
    parts = []
    for code, rest in re.findall(r"`([^`]+)`([^`]*)", text):
        words = []
        for w in code.split(" "):
            words.append(("\\fB%s\\fR" if w.startswith("-") else "\\fI%s\\fR") % escape(w))
        parts.append(" ".join(words) + escape(rest))
    return "".join(parts) if parts else inline(text)


def cells(row):
    """The cells of a table row; a \\| inside one is a |."""
    row = row.strip()[1:-1] if row.strip().endswith("|") else row.strip()[1:]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row)]


def convert(src, version):
    lines = src.split("\n")
    m = re.match(r"# ([\w.-]+)\((\d)\) -- (.+)$", lines[0])
    if not m:
        sys.exit("md2man: line 1: expected '# name(N) -- what it is'")
    name, section, what = m.groups()
    out = ['.TH "%s" "%s" "" "tracetune %s" "tracetune manual"' % (name.upper(), section, version),
           # left-aligned and unhyphenated: names, paths and values are
           # copied from a page as they are, and are never split
           ".ad l", ".nh", ".SH NAME", "%s \\- %s" % (escape(name), inline(what))]
    i, n = 1, len(lines)

    def fail(why):
        sys.exit("md2man: line %d: %s" % (i + 1, why))

    while i < n:
        s = lines[i]
        if not s.strip():
            i += 1
        elif s.startswith("## "):
            out.append(".SH " + escape(s[3:].strip()))
            i += 1
        elif s.startswith("### "):
            out.append(".SS " + escape(s[4:].strip()))
            i += 1
        elif s.startswith("```"):
            i += 1
            out += [".PP", ".RS 4", ".nf"]
            while i < n and not lines[i].startswith("```"):
                out.append(line(escape(lines[i])))
                i += 1
            if i == n:
                fail("a code block without its closing fence")
            out += [".fi", ".RE"]
            i += 1
        elif s.startswith("- "):
            text = [s[2:].strip()]
            i += 1
            while i < n and lines[i].startswith("  ") and lines[i].strip():
                text.append(lines[i].strip())
                i += 1
            body = " ".join(text)
            t = re.match(r"((?:`[^`]+`(?:, | \| | or )?)+): (.*)$", body)
            if t and t.group(1).startswith("`-"):
                out += [".TP", tag(t.group(1)), line(inline(t.group(2)))]
            else:
                out += [".IP \\(bu 2", line(inline(body))]
        elif s.startswith("|"):
            head = cells(s)
            if i + 1 >= n or not re.match(r"^\|[-:| ]+\|$", lines[i + 1].strip()):
                fail("a table without its |---| rule")
            i += 2
            while i < n and lines[i].startswith("|"):
                row = cells(lines[i])
                if len(row) != len(head):
                    fail("a row of %d cells under a header of %d" % (len(row), len(head)))
                out += [".TP", line(inline(row[0]))]
                first = True
                for h, c in zip(head[1:], row[1:]):
                    if not c:
                        continue
                    if not first:
                        out.append(".br")
                    out.append(line(("\\fI%s\\fR: " % inline(h) if h else "") + inline(c)))
                    first = False
                i += 1
        elif s.startswith(("#", "  ", "<")):
            fail("not understood here: %r" % s[:40])
        else:
            text = []
            while i < n and lines[i].strip() and not lines[i].startswith(("#", "```", "- ", "|")):
                text.append(lines[i].strip())
                i += 1
            out += [".PP", line(inline(" ".join(text)))]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: md2man.py SOURCE.md VERSION > PAGE")
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.stdout.write(convert(f.read(), sys.argv[2]))
