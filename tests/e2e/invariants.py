#!/usr/bin/env python3
"""SPEC 7's invariants on what tt-sim prints, for random small traces.

  invariants.py gen SEED OUT.csv OUT.models    write one random case; print its -p/-c arguments
  invariants.py check TRACE.csv JOBS.tsv TIMELINE.tsv METRICS.tsv GPUS

gen draws a case that stresses preemption: few GPUs, more jobs than GPUs,
min_run 0 often, a sensitive model, every queue order. check reads the
tool's --jobs, --timeline and metrics output and asserts, from them alone:
one row per job in trace order; every accepted job starts at or after its
submit', ends once, after its start, with JCT >= duration (slowdowns are
>= 1000 and no job is elastic); the busy GPUs never exceed the cluster's;
the GPU-seconds of the timeline (busy GPUs between events) equal the sum
of the jobs' gpu_s; waiting + running at each event equals the jobs
submitted and not yet ended. Exits 1 naming the first broken one.
"""
import csv
import random
import sys

ORDERS = ["fifo", "sjf", "srtf", "las", "dlas", "gittins", "ftf"]


def gen(seed, out_csv, out_models):
    r = random.Random(seed)
    racks, nodes, g = r.choice([(1, 1, 1), (1, 1, 2), (1, 2, 1), (1, 1, 4), (1, 2, 2), (2, 1, 2)])
    total = racks * nodes * g
    n = r.randint(total + 1, 40)
    with open(out_models, "w") as f:
        f.write("name\tslow_l1\tslow_l2\n")
        f.write("flat\t1000\t1000\nmild\t1000\t1300\nsens\t1000\t2000\n")
    t = 0
    with open(out_csv, "w") as f:
        f.write("name,submit,duration,gpus,model\n")
        for i in range(n):
            t += r.choice([0, 0, 0, 1, 5, 20, 60])
            k = r.choice([1] * 6 + [2] * 2 + [total, min(total, 3)])
            d = r.choice([1, 2, 10, 30, 60, 200])  # 0 s jobs start and end at one event
            f.write("j%d,%d,%d,%d,%s\n" % (i, t, d, k, r.choice(["flat", "flat", "mild", "sens"])))
    order = r.choice(ORDERS)
    p = ["order=" + order,
         "w0=" + r.choice(["0", "0", "5", "30", "inf"]),
         "w1=" + r.choice(["0", "10", "inf"]),
         "theta=" + r.choice(["1001", "1500", "inf"]),
         "min_run=" + r.choice(["0", "0", "0", "1", "10"]),
         "max_preempt=" + str(r.randint(1, 4)),
         "restart=" + r.choice(["0", "1", "30"])]
    if order in ("dlas", "gittins"):
        p += ["mlfq=" + r.choice(["10", "50", "5,40"]),
              "promote=" + r.choice(["0", "0", "1000", "4000"]),
              "prio_preempt=" + r.choice(["1", "1", "0"])]
    print("-c %dx%dx%d %s" % (racks, nodes, g, " ".join("-p " + x for x in p)))


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f, delimiter="\t"))


def check(trace_csv, jobs_tsv, timeline_tsv, metrics_tsv, gpus):
    gpus = int(gpus)
    with open(trace_csv) as f:
        trace = list(csv.DictReader(f))
    jobs = rows(jobs_tsv)
    tl = rows(timeline_tsv)
    met = rows(metrics_tsv)[0]

    def bad(msg):
        print("invariant broken: " + msg)
        sys.exit(1)

    if len(jobs) != len(trace):
        bad("%d job rows for %d jobs" % (len(jobs), len(trace)))
    gs = 0
    ends = []
    for i, (t, j) in enumerate(zip(trace, jobs)):
        if int(j["job"]) != i or int(j["submit"]) != int(t["submit"]):
            bad("row %d is job %s submitted at %s" % (i, j["job"], j["submit"]))
        if j["end"] in ("", "-", "-1") or int(j.get("rejected", "0") or 0):
            continue
        sub, st, en, d = int(j["submit"]), int(j["start"]), int(j["end"]), int(t["duration"])
        if st < sub or en < st:
            bad("job %d: submit %d start %d end %d" % (i, sub, st, en))
        if en - sub < d:
            bad("job %d: JCT %d < duration %d" % (i, en - sub, d))
        if int(j["jct"]) != en - sub:
            bad("job %d: jct %s, end - submit %d" % (i, j["jct"], en - sub))
        gs += int(j["gpu_s"])
        ends.append((sub, en))
    busy = 0
    for a, b in zip(tl, tl[1:] + [None]):
        k = int(a["busy_gpus"])
        if k < 0 or k > gpus:
            bad("at %s %d GPUs busy of %d" % (a["t"], k, gpus))
        t = int(a["t"])
        active = sum(1 for s, e in ends if s <= t < e)
        if int(a["waiting"]) + int(a["running"]) != active:
            bad("at %d waiting %s + running %s, %d jobs submitted and not ended"
                % (t, a["waiting"], a["running"], active))
        if b is not None:
            busy += k * (int(b["t"]) - t)
        elif k != 0:
            bad("GPUs still busy at the last event %d" % t)
    if busy != gs:
        bad("timeline GPU-seconds %d, jobs' gpu_s %d" % (busy, gs))
    if int(float(met["preemptions"])) < 0:
        bad("preemptions %s" % met["preemptions"])


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "gen":
        gen(int(sys.argv[2]), sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 7 and sys.argv[1] == "check":
        check(*sys.argv[2:])
    else:
        sys.exit(__doc__)
