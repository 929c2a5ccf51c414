"""What both notebooks share: where the tools, traces and outputs are, the
QUICK switch, and running a tool so that the notebook shows its command.

Settings come from the environment, so that `make study`, `make notebooks` and
a reader's own Jupyter run the same notebooks:
    QUICK=1      a subset of jobs, coarse grids (CI: both notebooks in minutes)
    TT_BIN       the tools (default: bin/ of the repository)
    TT_SHARED    the shared data, traces in TT_SHARED/traces (default: ../shared)
    STUDY_OUT    where files, figures and the report go (default: study/)
    STUDY_JOBS   threads for tt-sweep and tt-tune (-j; default 2)
"""
import io
import os
import shlex
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))

QUICK = os.environ.get("QUICK", "0") not in ("", "0")
BIN = os.path.abspath(os.environ.get("TT_BIN", os.path.join(ROOT, "bin")))
SHARED = os.path.abspath(os.environ.get("TT_SHARED", os.path.join(ROOT, "..", "shared")))
TRACES = os.path.join(SHARED, "traces")
OUT = os.path.abspath(os.environ.get("STUDY_OUT", os.path.join(ROOT, "study")))
JOBS = os.environ.get("STUDY_JOBS", "2")
os.makedirs(OUT, exist_ok=True)


def _shown(args):
    """The command as a reader would type it: tools by name, paths relative
    to the output folder or the shared traces."""
    out = []
    for a in args:
        a = str(a)
        for base, name in ((BIN + "/", ""), (OUT + "/", ""), (TRACES, "$TRACES")):
            a = a.replace(base, name)
        out.append(shlex.quote(a) if a != "$TRACES" and not a.startswith("$TRACES/") else a)
    return " ".join(out)


def sh(*args, stdin=None, quiet=False):
    """Runs a tool in the output folder, prints its command line (and its
    stderr unless quiet), and returns its stdout; fails the cell on a
    non-zero exit."""
    args = [os.path.join(BIN, args[0]) if args[0].startswith("tt-") else args[0], *args[1:]]
    print("$", (stdin[0] + " | " if stdin else "") + _shown(args))
    p = subprocess.run([str(a) for a in args], cwd=OUT, capture_output=True, text=True,
                       input=stdin[1] if stdin else None)
    if p.stderr and (not quiet or p.returncode):
        print(p.stderr.rstrip())
    if p.returncode:
        raise RuntimeError(f"{args[0]} exited with {p.returncode}")
    return p.stdout


def tsv(text):
    """A tool's TSV output as a DataFrame."""
    import pandas as pd

    return pd.read_csv(io.StringIO(text), sep="\t", keep_default_na=False, na_values=[""])


def ingest(name, *inputs, fmt=None, first=None):
    """tt-ingest of a shared trace into NAME.h5; with first=N, only its
    first N jobs in submit order (tt-cat | head | tt-ingest -f csv)."""
    path = f"{name}-all.h5" if first else f"{name}.h5"
    sh("tt-ingest", *(["-f", fmt] if fmt else []), "-o", path, *inputs)
    if not first:
        return path
    rows = sh("tt-cat", path, quiet=True).splitlines(keepends=True)
    sh("tt-ingest", "-f", "csv", "-o", f"{name}.h5", "-",
       stdin=(f"tt-cat {path} | head -n {first + 1}", "".join(rows[:first + 1])))
    return f"{name}.h5"


def last_part(path, fraction, name):
    """The last round(fraction * n) jobs of a trace, as tt-tune --holdout
    tests on them, as a trace of their own (for the baselines' sweeps)."""
    rows = sh("tt-cat", path, quiet=True).splitlines(keepends=True)
    k = round(fraction * (len(rows) - 1))
    out = f"{name}.h5"
    sh("tt-ingest", "-q", "-f", "csv", "-o", out, "-",
       stdin=(f"tt-cat {path} | (head -n 1; tail -n {k})", rows[0] + "".join(rows[-k:])))
    return out


def figure(kind, name, *args):
    """tt-plot KIND into NAME.png and NAME.pdf; shows the PNG."""
    for ext in ("png", "pdf"):
        sh("tt-plot", kind, "-o", f"{name}.{ext}", *args, quiet=True)
    try:
        from IPython.display import Image, display
        display(Image(os.path.join(OUT, f"{name}.png")))
    except ImportError:
        pass
    return f"{name}.png"


def save(fig, name):
    """A matplotlib figure into NAME.png and NAME.pdf in the output folder."""
    for ext in ("png", "pdf"):
        fig.savefig(os.path.join(OUT, f"{name}.{ext}"), dpi=110, bbox_inches="tight")
    return f"{name}.png"


def markdown(df, digits=3):
    """A DataFrame as a Markdown table (pandas' to_markdown needs tabulate,
    which Debian does not install with pandas)."""
    def cell(v):
        if isinstance(v, float):
            return "inf" if np.isinf(v) else "" if np.isnan(v) else f"{v:.{digits}f}"
        return str(v)

    import numpy as np
    lines = ["| " + " | ".join(map(str, df.columns)) + " |", "|" + "---|" * len(df.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join(lines)
