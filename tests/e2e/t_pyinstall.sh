# python/ is a package: pip installs it (no network: --no-deps
# --no-build-isolation, into a virtual environment over Debian's h5py and
# pandas), and then 'import tracetune' and 'python3 -m tracetune' work from
# anywhere without PYTHONPATH and read as the tools print; its version is
# libcore's. A Python without h5py or numpy is told what to install, not
# given a bare traceback.
PY=/usr/bin/python3 # Debian's python3-h5py and python3-pandas live there
[ -x "$PY" ] || PY=python3
unset PYTHONPATH
$PY -c "import h5py, pandas" 2>/dev/null || skip "no h5py or pandas for $PY (apt install python3-h5py python3-pandas)"
$PY -c "import importlib.util as u, sys; sys.exit(not all(u.find_spec(m) for m in ('venv', 'pip', 'setuptools')))" ||
    skip "no venv, pip or setuptools for $PY (apt install python3-venv python3-pip python3-setuptools)"
ROOT="$FIX/../.."

# without h5py and numpy (-S: no site-packages): what to install
$PY -S -c "import sys; sys.path.insert(0, '$ROOT/python'); import tracetune" >out.txt 2>err.txt &&
    fail "import tracetune without h5py and numpy succeeded"
[ "$(tail -1 err.txt)" = "ImportError: tracetune: reading tracetune's files needs the Python packages numpy and h5py, which this Python ($PY) cannot import: pip install numpy h5py, or on Debian apt install python3-numpy python3-h5py (for /usr/bin/python3)" ] ||
    fail "import tracetune without h5py: $(tail -3 err.txt)"
grep -q "ModuleNotFoundError" err.txt && fail "a bare traceback: $(cat err.txt)"

# installed from a copy (pip builds in the source tree: the repository stays clean)
cp -r "$ROOT/python" src
rm -rf src/build src/*.egg-info
$PY -m venv --without-pip --system-site-packages venv || fail "python3 -m venv"
venv/bin/python -m pip install -q --no-deps --no-build-isolation --no-index \
    --disable-pip-version-check ./src >pip.txt 2>&1 || fail "pip install ./python: $(tail -5 pip.txt)"
tt-ingest -q -o ex.h5 "$ROOT/data/example.tsv"
mkdir elsewhere
(cd elsewhere && ../venv/bin/python -c '
import tracetune, sys
print(len(tracetune.read_trace("../ex.h5")), tracetune.__file__)' >../py.txt 2>../err.txt) ||
    fail "import tracetune after pip install: $(tail -3 err.txt)"
read -r n where <py.txt
[ "$n" = 2000 ] || fail "read_trace after pip install: $(cat py.txt)"
case $where in "$PWD"/venv/*) ;; *) fail "tracetune imported from $where, not the install" ;; esac
(cd elsewhere && ../venv/bin/python -m tracetune ../ex.h5 --tsv) >py.tsv || fail "python -m tracetune"
tt-cat ex.h5 | cmp -s - py.tsv || fail "python -m tracetune --tsv after pip install differs from tt-cat"
# its version is the library's
v=$(sed -n 's/^#define TT_VERSION "\(.*\)"$/\1/p' "$ROOT/libcore/include/tt/version.h")
[ "$(venv/bin/python -c 'import importlib.metadata as m; print(m.version("tracetune"))')" = "$v" ] ||
    fail "python/pyproject.toml's version is not TT_VERSION $v"
