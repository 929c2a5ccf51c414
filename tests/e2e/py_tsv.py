"""What the tracetune Python package reads, written back as the TSV the
tools print, for tests/e2e/t_python.sh to compare byte for byte:

    py_tsv.py trace|jobs|timeline|sim|sweep|tune|rolling FILE

trace, jobs and timeline (integers and text) go through pandas' own
to_csv; sim, sweep and tune rows are formatted as the tools format them
(inf, the metrics' decimals), from the frame's values.
"""
import math
import sys

import pandas as pd

import tracetune

DECIMALS = {"jct_mean": 6, "queue_mean": 6, "comm_gpu_s": 3, "comm_share": 6, "util": 6,
            "ftf_mean": 6, "wf_jct_mean": 6}


def cell(name, v):
    if v is pd.NA or (isinstance(v, float) and math.isnan(v)):
        return ""
    if name in DECIMALS:
        return f"{v + 0.0:.{DECIMALS[name]}f}"  # + 0.0: no "-0.000000"
    if isinstance(v, float):
        return "inf" if math.isinf(v) else str(int(v))
    return str(v)


def rows(df, names=None):
    names = names or list(df.columns)
    for r in df[names].itertuples(index=False, name=None):
        yield [cell(n, v) for n, v in zip(names, r)]


def tune(path):
    h = tracetune.read_tune(path)
    roles = h.attrs["roles"]
    conf = list(tracetune.PARAMS) + list(tracetune.METRICS)
    head = ["role", "objective_train", "objective_test", "regret_test", "feasible_train",
            "feasible_test"] + list(tracetune.PARAMS)
    head += [f"{p}_{m}" for p in ("train", "test") for m in tracetune.METRICS]
    print("\t".join(head))
    best = roles.get("hindsight", {}).get("test_row")
    for role, at in roles.items():
        tr, te = h.iloc[at["train_row"]], at["test_row"]
        te = None if te is None else h.iloc[te]
        line = [role, f"{tr.objective:.6f}"]
        if te is None:
            line += ["", "", str(tr.feasible), ""]
        else:
            regret = te.objective - h.iloc[best].objective
            line += [f"{te.objective:.6f}", f"{regret:.6f}", str(tr.feasible), str(te.feasible)]
        line += [cell(n, tr[n]) for n in conf]
        line += [cell(n, te[n]) if te is not None else "" for n in tracetune.METRICS]
        print("\t".join(line))


def rolling(path):
    w = tracetune.read_tune_rolling(path)
    names = list(w.columns[:w.columns.get_loc("next_first") + 1])
    names.remove("job_from")
    names.remove("job_to")
    print("\t".join(names))
    last = len(w) - 1
    for k, r in enumerate(w[names].itertuples(index=False, name=None)):
        out = []
        for n, v in zip(names, r):
            if n == "objective" or n.startswith("next_") and n != "next_jobs":
                out.append("" if math.isnan(v) else f"{v:.6f}")
            elif n == "next_jobs" and k == last:
                out.append("")
            else:
                out.append(cell(n, v))
        print("\t".join(out))


def main():
    kind, path = sys.argv[1], sys.argv[2]
    if kind in ("trace", "jobs", "timeline"):
        read = {"trace": tracetune.read_trace, "jobs": tracetune.read_sim_jobs,
                "timeline": tracetune.read_sim_timeline}[kind]
        read(path).to_csv(sys.stdout, sep="\t", index=False, na_rep="")
    elif kind in ("sim", "sweep"):
        df = tracetune.read_sim(path) if kind == "sim" else tracetune.read_sweep(path)
        print("\t".join(df.columns))
        for r in rows(df):
            print("\t".join(r))
    elif kind == "rolling":
        rolling(path)
    else:
        tune(path)


if __name__ == "__main__":
    main()
