"""Read tracetune's HDF5 files (tracetune-files(5): docs/man/tracetune-files.5.md) into pandas DataFrames.

    # pip install ./python (or PYTHONPATH=python); Debian: apt install python3-h5py python3-pandas
    import tracetune
    jobs = tracetune.read_trace("trace.h5")     # tt-ingest -o, tt-gen -o

pandas.read_hdf cannot read these files: it reads only the layout PyTables
writes. Here every column comes in the order the tools print it as TSV:

    read_trace(path)         the jobs, as tt-cat prints them
    read_sim(path)           one row: parameters and metrics, as tt-sim prints them
    read_sim_jobs(path)      per job, as tt-sim --jobs prints them (tt-sim -o)
    read_sim_timeline(path)  per event time, as tt-sim --timeline prints them
    read_sweep(path)         one row per configuration, as tt-sweep prints them
                             (tt-sweep -o, tt-merge -o); the index is /sweep/index
    read_tune(path)          every configuration tt-tune -o evaluated (/tune/history)
    read_tune_rolling(path)  one row per window of tt-tune --rolling -o (/tune/rolling),
                             as tt-tune --rolling prints them (less the total row)

Absent values are NA (start and end of a job that never ran, a rejected job's
results, a string the trace lacks); text columns are pandas strings; the
parameters that may be infinite (w0, w1, theta, a class's w0.CLASS) are
float64 with inf. The file's attributes are in DataFrame.attrs.

h5py and numpy are needed; pandas only for the DataFrames (trace_columns reads
a trace with h5py and numpy alone). Without them, importing tracetune (or
calling a reader, for pandas) raises an ImportError that says what to install.
"""
import sys as _sys

_DEBIAN = {"h5py": "python3-h5py", "numpy": "python3-numpy", "pandas": "python3-pandas"}


def _missing(names, what):
    """The ImportError that says what to install for the packages names."""
    return ImportError(
        f"tracetune: {what} needs the Python package{'s' if len(names) > 1 else ''} "
        f"{' and '.join(names)}, which this Python ({_sys.executable}) cannot import: "
        f"pip install {' '.join(names)}, or on Debian apt install "
        f"{' '.join(_DEBIAN[n] for n in names)} (for /usr/bin/python3)", name=names[0])


def _need(*names):
    lost = []
    for n in names:
        try:
            __import__(n)
        except ImportError as e:
            if e.name != n:  # the package is there but broken: its own message
                raise
            lost.append(n)
    return lost


_lost = _need("numpy", "h5py")
if _lost:
    raise _missing(_lost, "reading tracetune's files")
import h5py  # noqa: E402
import numpy as np  # noqa: E402

__all__ = ["read_trace", "read_sim", "read_sim_jobs", "read_sim_timeline", "read_sweep",
           "read_tune", "read_tune_rolling", "trace_columns", "TRACE_COLUMNS", "OPTIONAL_TRACE_COLUMNS", "PARAMS",
           "METRICS"]

TRACE_COLUMNS = ("submit", "duration", "gpus", "gpu_milli", "start", "end", "nodes",
                 "name", "user", "vc", "model", "status")
# in a trace that has them (SPEC 10.6, 12.7); deps is the parents' names
OPTIONAL_TRACE_COLUMNS = ("elastic", "gpus_min", "gpus_max", "wf", "deps", "mid", "mem_mb",
                          "out_mb")
PARAMS = ("order", "w0", "w1", "theta", "restart", "congestion", "min_run", "max_preempt",
          "backfill", "load", "seed", "mix", "timers", "mlfq", "promote", "prio_preempt",
          "gittins_delta", "gittins_dist", "el_up", "el_down", "el_frac", "resize",
          "resize_cost", "resize_gap", "gpu_mem", "cache_slots", "load_bw", "xfer_bw", "evict",
          "cache_place", "w_warm", "requeue", "prio_victims")
METRICS = ("makespan", "jct_mean", "jct_p50", "jct_p90", "jct_p99", "queue_mean", "queue_p99",
           "comm_gpu_s", "comm_share", "restart_gpu_s", "preemptions", "placed_l0", "placed_l1",
           "placed_l2", "util", "rejected", "resizes", "grows", "shrinks",
           "resize_gpu_s", "loan_gpu_s", "demotions", "promotions", "preempt_prio",
           "ftf_mean", "ftf_max", "ftf_unfair", "wf_jct_mean", "wf_jct_p99", "wf_rejected",
           "cache_hit", "loads", "model_evicts", "load_gpu_s", "xfer_gpu_s")
SIM_JOB_COLUMNS = ("job", "submit", "duration", "gpus", "model", "start", "end", "jct", "queue",
                   "level", "slow", "preemptions", "starts_l0", "starts_l1", "starts_l2", "gpu_s",
                   "rho")
TIMELINE_COLUMNS = ("t", "waiting", "running", "busy_gpus", "running_l0", "running_l1",
                    "running_l2")
HISTORY_COLUMNS = ("part", "phase", "round", "sim_row", "objective", "feasible", "predicted")


def _attrs(obj):
    return {k: (v.decode() if isinstance(v, bytes) else v.item() if hasattr(v, "item") else v)
            for k, v in obj.attrs.items()}


def _group(f, path, name, layout):
    """The group name of an open file, checked to be of the layout wanted."""
    if name not in f or not isinstance(f[name], h5py.Group):
        raise ValueError(f"{path}: not a {layout} file (no /{name} group)")
    g = f[name]
    got = g.attrs.get("tracetune_layout", b"")
    got = got.decode() if isinstance(got, bytes) else got
    if got != layout:
        raise ValueError(f"{path}: tracetune_layout '{got}', expected '{layout}'")
    return g


def _strings(d):
    return d.asstr()[()]


def _column(d):
    """A dataset as (values, absent): absent is a bool mask or None. Strings
    come as an object array of str; an "infinite" integer column as float64
    with inf (and a class timer's -1, the global timer, as NaN)."""
    if h5py.check_string_dtype(d.dtype):
        return np.array(np.atleast_1d(_strings(d)), dtype=object), None
    v = np.atleast_1d(d[()])  # a scalar (/sim/summary) is a column of one
    if "missing" in d.attrs:
        return v, v == d.attrs["missing"]
    if "infinite" in d.attrs:
        f = v.astype(np.float64)
        f[v == d.attrs["infinite"]] = np.inf
        if "." in d.name.rsplit("/", 1)[-1]:
            f[v == -1] = np.nan
        return f, None
    return v, None


def trace_columns(path):
    """A trace with h5py and numpy alone: ({column: (values, absent)}, attrs)
    in TRACE_COLUMNS order, then those of OPTIONAL_TRACE_COLUMNS the trace
    has; a text column's values are str, or None where
    absent (absent is then None)."""
    with h5py.File(path, "r") as f:
        g = _group(f, path, "jobs", "trace/1")
        cols = {}
        for c in TRACE_COLUMNS:
            d = g[c]
            if c in g["tables"]:
                table = np.array(list(_strings(g["tables"][c])) + [None], dtype=object)
                cols[c] = (table[d[()]], None)  # code -1, absent, is the None at the end
            else:
                cols[c] = _column(d)
        for c in OPTIONAL_TRACE_COLUMNS:
            if c == "deps" and "dep_off" in g:
                cols[c] = (_parents(g, cols["name"][0]), None)
            elif c != "deps" and c in g:
                cols[c] = (g[c][()], None)  # -1 and 0 are values, as tt-cat prints them
        return cols, _attrs(g)


def _parents(g, names):
    """Each row's parents as tt-cat prints them: names joined by ';', a row
    without a name by its index."""
    off, deps = g["dep_off"][()], g["deps"][()]
    ends = np.append(off[1:], len(deps))
    out = np.empty(len(off), dtype=object)
    for i in range(len(off)):
        out[i] = ";".join(names[p] if names[p] is not None else str(p)
                          for p in deps[off[i]:ends[i]])
    return out


def _pandas():
    if _need("pandas"):
        raise _missing(["pandas"], "a DataFrame (trace_columns reads without it)")
    import pandas
    return pandas


def _frame(cols, attrs, index=None):
    pd = _pandas()

    data = {}
    for name, (v, absent) in cols.items():
        if v.dtype == object:
            data[name] = pd.array(v, dtype="string")
        elif absent is not None:
            data[name] = pd.arrays.IntegerArray(v.copy(), absent.copy())
        else:
            data[name] = v
    df = pd.DataFrame(data, index=index)
    df.attrs.update(attrs)
    return df


def _members(g, first):
    """The datasets of g: those in first, in that order, then any others by
    name (a class timer column, a column newer than this reader)."""
    return [n for n in first if n in g] + sorted(n for n in g if n not in first)


def read_trace(path):
    """The jobs of a trace (tt-ingest -o, tt-gen -o) as tt-cat prints them."""
    return _frame(*trace_columns(path))


def read_sim(path):
    """The simulation of a tt-sim -o file as one row: its 24 parameters and
    27 metrics, as tt-sim prints them (a file written before SPEC 11's
    columns has 13 and 16, and before section 10's, 18 and 22)."""
    with h5py.File(path, "r") as f:
        g = _group(f, path, "sim", "sim/1")
        s = g["summary"]
        return _frame({n: _column(s[n]) for n in _members(s, PARAMS + METRICS)}, _attrs(g))


def read_sim_jobs(path):
    """Per-job results of a tt-sim -o file, as tt-sim --jobs prints them: a
    rejected job's start, end, jct, queue, level and slow are NA, as is the
    rho of a job of duration 0 (or of a file written before rho)."""
    with h5py.File(path, "r") as f:
        g = _group(f, path, "sim", "sim/1")
        j = g["jobs"]
        raw = {n: j[n][()] for n in j}
        names = np.array(list(_strings(g["models"]["name"])) + [None], dtype=object)
        rejected = raw["rejected"] != 0
        raw["model"] = names[raw["cls"]]
        raw["jct"] = np.where(rejected, 0, raw["end"] - raw["submit"])
        cols = {}
        if "rho" not in raw:
            raw["rho"] = np.full(len(rejected), np.iinfo(np.int64).min)
        for c in SIM_JOB_COLUMNS:
            na = c in ("start", "end", "jct", "queue", "level", "slow")
            absent = rejected if na and raw[c].dtype != object else None
            if c == "rho":
                absent = raw[c] == np.iinfo(np.int64).min
            cols[c] = (raw[c], absent)
        return _frame(cols, _attrs(g))


def read_sim_timeline(path):
    """The timeline of a tt-sim -o file, as tt-sim --timeline prints it."""
    with h5py.File(path, "r") as f:
        g = _group(f, path, "sim", "sim/1")
        if "timeline" not in g:
            raise ValueError(f"{path}: no /sim/timeline")
        t = g["timeline"]
        return _frame({c: _column(t[c]) for c in _members(t, TIMELINE_COLUMNS)}, _attrs(g))


def _table(g):
    """The params and metrics groups of g as columns, parameters first."""
    cols = {n: _column(g["params"][n]) for n in _members(g["params"], PARAMS)}
    cols.update({n: _column(g["metrics"][n]) for n in _members(g["metrics"], METRICS)})
    return cols


def read_sweep(path):
    """A sweep (tt-sweep -o, tt-merge -o), one row per configuration as
    tt-sweep prints them, indexed by the position in the full sweep."""
    pd = _pandas()

    with h5py.File(path, "r") as f:
        g = _group(f, path, "sweep", "sweep/1")
        index = pd.Index(g["index"][()], name="index")
        return _frame(_table(g), _attrs(g), index=index)


def read_tune(path):
    """Every configuration a tt-tune -o file evaluated (/tune/history): part
    (0 train, 1 test), phase (0 search, 1 grid baseline, 2 single
    configurations, 3 hindsight search), round, sim_row (the row whose
    simulation gave its metrics: itself, or one of the same canonical form;
    absent from files written before it), objective, feasible, predicted
    (NaN where the surrogate did not propose the point), the 33 parameters,
    a searched class timer's own column (w0.CLASS; NaN where a row uses the
    global timer), the 35 metrics. attrs: the /tune attributes, "space" (each searched
    dimension's values, in -s order) and "roles" ({role: {"train_row": i,
    "test_row": j or None}}, rows of this frame)."""
    with h5py.File(path, "r") as f:
        g = _group(f, path, "tune", "tune/1")
        h = g["history"]
        cols = {n: _column(h[n]) for n in HISTORY_COLUMNS if n in h}
        cols.update(_table(h))
        attrs = _attrs(g)
        space = g["space"]
        attrs["space"] = {n: _column(space[n])[0].tolist() for n in _creation_order(space)}
        r = g["result"]
        attrs["roles"] = {role: {"train_row": int(a), "test_row": int(b) if b >= 0 else None}
                          for role, a, b in zip(_strings(r["role"]), r["train_row"][()],
                                                r["test_row"][()])}
        return _frame(cols, attrs)


def read_tune_rolling(path):
    """The windows of a rolling tune (tt-tune --rolling -o: /tune/rolling), a
    row each, columns in the order tt-tune --rolling prints them (window,
    start, end, jobs, job_from, job_to, the searched parameters of the
    window's choice, objective, exact, sims, next_jobs, next_choice,
    next_hindsight, next_strict, next_first; NaN on the last window, which
    has no next), then the rows of /tune/history each role's objective on the
    next window came from (row, next_*_row; -1 none). attrs: the /tune
    attributes (rolling, windows, hindsight, verdict, ...)."""
    with h5py.File(path, "r") as f:
        g = _group(f, path, "tune", "tune/1")
        if "rolling" not in g:
            raise ValueError(f"{path}: not a rolling tune (no /tune/rolling; tt-tune --rolling "
                             "-o writes one)")
        r = g["rolling"]
        return _frame({n: _column(r[n]) for n in _creation_order(r)}, _attrs(g))


def _creation_order(g):
    """The member names of g in creation order (tt-tune keeps -s order so)."""
    names = []
    g.id.links.iterate(lambda n: names.append(n.decode()), idx_type=h5py.h5.INDEX_CRT_ORDER)
    return names
