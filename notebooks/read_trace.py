#!/usr/bin/env python3
"""Read a tracetune trace (HDF5) with h5py and numpy only, no tracetune code.

    python3 notebooks/read_trace.py TRACE.h5          # summary
    python3 notebooks/read_trace.py TRACE.h5 --tsv    # jobs as TSV, like tt-cat

In a notebook: `jobs, attrs = load("trace.h5")` gives a dict of numpy
columns (string columns decoded through /jobs/tables/<col>, absent values as
None) and the provenance attributes; `pandas.DataFrame(jobs)` makes a frame.
"""
import sys

import h5py
import numpy as np

STRING_COLS = ("name", "user", "vc", "model", "status")
COLS = ("submit", "duration", "gpus", "gpu_milli", "start", "end", "nodes") + STRING_COLS


def load(path):
    with h5py.File(path, "r") as f:
        g = f["jobs"]
        attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in g.attrs.items()}
        jobs = {}
        for col in COLS:
            data = g[col][()]
            if col in STRING_COLS:
                table = [s.decode() if isinstance(s, bytes) else s for s in g["tables"][col][()]]
                jobs[col] = np.array([table[c] if c >= 0 else None for c in data], dtype=object)
            else:
                missing = g[col].attrs.get("missing")
                jobs[col] = data
                if missing is not None:
                    jobs[col] = np.where(data == missing, None, data).astype(object)
        return jobs, attrs


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: read_trace.py TRACE.h5 [--tsv]")
    jobs, attrs = load(sys.argv[1])
    if "--tsv" in sys.argv:
        print("\t".join(COLS))
        for i in range(len(jobs["submit"])):
            print("\t".join("" if jobs[c][i] is None else str(jobs[c][i]) for c in COLS))
        return
    gpu_s = int(np.sum(jobs["gpus"].astype(np.int64) * jobs["duration"].astype(np.int64)))
    print(f"jobs\t{len(jobs['submit'])}")
    print(f"gpu_hours\t{gpu_s / 3600:.2f}")
    print(f"format\t{attrs['format']}")
    print(f"rows_read\t{attrs['rows_read']}")


if __name__ == "__main__":
    main()
