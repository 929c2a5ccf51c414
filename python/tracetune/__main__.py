"""A trace read with h5py and numpy alone (no pandas, no tracetune C code):

    python3 -m tracetune TRACE.h5          # summary
    python3 -m tracetune TRACE.h5 --tsv    # jobs as tt-cat prints them

(after pip install ./python, or with PYTHONPATH=python)
"""
import sys

from . import trace_columns  # first: it says what to install when h5py or numpy is missing

import numpy as np  # noqa: E402


def text(values, absent):
    """A column as the strings tt-cat prints: absent empty, tabs and line
    breaks in text made spaces."""
    if values.dtype == object:
        return ["" if s is None else s.replace("\t", " ").replace("\n", " ").replace("\r", " ")
                for s in values]
    out = values.astype(str).astype(object)
    if absent is not None:
        out[absent] = ""
    return out


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        sys.exit("usage: python3 -m tracetune TRACE.h5 [--tsv]")
    cols, attrs = trace_columns(argv[1])
    if "--tsv" in argv[2:]:
        out = sys.stdout
        out.write("\t".join(cols) + "\n")  # the twelve, then the optional ones it has
        for row in zip(*(text(*v) for v in cols.values())):
            out.write("\t".join(row) + "\n")
        return
    gpus, duration = cols["gpus"][0].astype(np.int64), cols["duration"][0]
    print(f"jobs\t{len(duration)}")
    print(f"gpu_hours\t{int(np.sum(gpus * duration)) / 3600:.2f}")
    print(f"format\t{attrs['format']}")
    print(f"rows_read\t{attrs['rows_read']}")


if __name__ == "__main__":
    main(sys.argv)
