#!/usr/bin/env bash
# tests/notebooks/run.sh: the study's notebooks (notebooks/*.ipynb) are
# stored clean (no outputs, no execution counts) and are the notebooks of
# their percent-format sources, which compile as the scripts they are
# documented to be (every text line a comment); then both run top to bottom headless with
# QUICK=1 (a subset of jobs, coarse grids) into build/notebooks, and a cell
# that fails fails the test. A notebook with a failing cell is run first, so
# that a runner which let errors pass would fail here. Skipped, saying why,
# where Debian's nbclient, ipykernel or matplotlib are missing (.ci/setup-debian
# installs them) or the shared traces are absent.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${TT_BIN:?set TT_BIN to the bin/ folder}"
export TT_BIN TT_SHARED=${TT_SHARED:-$(cd .. && pwd)/shared}
PY=/usr/bin/python3 # Debian's packages live there
[ -x "$PY" ] || PY=python3
out=${NB_OUT:-build/notebooks}

$PY notebooks/ipynb.py --check || { echo "notebooks: FAIL: stored notebooks"; exit 1; }
[ -d "$TT_SHARED/traces" ] || { echo "notebooks: skipped: no traces in $TT_SHARED/traces"; exit 0; }
missing=$($PY -c '
import importlib.util as u
print(" ".join(p for m, p in (("nbclient", "python3-nbclient"), ("nbformat", "python3-nbformat"),
      ("ipykernel", "python3-ipykernel"), ("matplotlib", "python3-matplotlib"),
      ("pandas", "python3-pandas"), ("h5py", "python3-h5py")) if u.find_spec(m) is None))')
if [ -n "$missing" ]; then
    echo "notebooks: skipped: Debian packages missing: $missing (.ci/setup-debian installs them)"
    exit 0
fi

rm -rf "$out" && mkdir -p "$out/fails"
printf '# %%%%\nprint("ran")\n# %%%%\nraise SystemExit("a failing cell")\n' >"$out/fails/fails.py"
$PY notebooks/ipynb.py "$out/fails/fails.py" || exit 1
if $PY notebooks/execute.py "$out/fails" "$out/fails/fails.ipynb" >"$out/fails/log" 2>&1; then
    echo "notebooks: FAIL: a notebook with a failing cell ran without error"; exit 1
fi
start=$(date +%s)
QUICK=1 $PY notebooks/execute.py "$out" notebooks/trace-tour.ipynb notebooks/network-sensitive-study.ipynb \
    || { echo "notebooks: FAIL"; exit 1; }
[ -s "$out/report.md" ] || { echo "notebooks: FAIL: no $out/report.md"; exit 1; }
echo "notebooks: ok: both notebooks ran with QUICK=1 in $(( $(date +%s) - start )) s (outputs in $out)"
