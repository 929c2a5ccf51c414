#!/usr/bin/env python3
"""Executes notebooks headless with nbclient and writes each executed copy to
OUT/NAME.ipynb; exits 1 at the first cell that fails (its error printed), 77
where nbclient, ipykernel or matplotlib is missing. The notebooks read their
settings from the environment (notebooks/ttstudy.py): STUDY_OUT is set to OUT.

    notebooks/execute.py OUT NOTEBOOK.ipynb...
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main(out, notebooks):
    try:
        import nbclient
        import nbformat
        import ipykernel  # noqa: F401  the kernel the notebooks name
        import matplotlib  # noqa: F401
    except ImportError as e:
        print(f"execute: {e.name} missing (Debian: python3-nbclient python3-nbformat "
              "python3-ipykernel python3-matplotlib, as .ci/setup-debian installs)", file=sys.stderr)
        return 77
    os.makedirs(out, exist_ok=True)
    os.environ["STUDY_OUT"] = os.path.abspath(out)
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # the kernel's debugger notes
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        t0 = time.monotonic()
        client = nbclient.NotebookClient(nb, timeout=None, kernel_name="python3",
                                         resources={"metadata": {"path": HERE}})
        try:
            client.execute()
        except nbclient.exceptions.CellExecutionError as e:
            print(f"execute: {os.path.basename(path)}: a cell failed:\n{e}", file=sys.stderr)
            return 1
        finally:
            nbformat.write(nb, os.path.join(out, os.path.basename(path)))
        print(f"execute: {os.path.basename(path)}: {time.monotonic() - t0:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
