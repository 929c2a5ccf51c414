# %% [markdown]
# # A tour of the bundled traces
#
# The public GPU-cluster traces in `$TT_SHARED/traces` side by side: how many jobs, how the
# GPU-hours split by job size, how long and how large jobs are, when they arrive in the day, and
# how demand splits across virtual clusters (VCs). These are the figures scheduling papers open
# with. Each trace is read with `tt-ingest` and `tt-stats` (commands shown) and then into pandas
# with the repository's reader, `tracetune.read_trace`.
#
# Settings come from the environment (see `notebooks/ttstudy.py`): `QUICK=1` for CI,
# `TT_SHARED` for the traces, `STUDY_OUT` for the outputs.

# %%
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
from ttstudy import sh, tsv, ingest, save, TRACES, OUT, QUICK
import tracetune

print("traces ($TRACES) in", TRACES, "| outputs in", OUT, "| QUICK" if QUICK else "")

# %% [markdown]
# ## The traces
#
# Job-level rows are all that is bundled for Philly (the Pollux per-job CSV) and Alibaba GPU 2023
# (openb pods); for PAI 2020 the 133-job head of the simulator trace; for Helios and Acme only
# the few example jobs of their READMEs (`traces/README.md` says why). The small ones are shown
# so that the formats are covered, not as statistics.

# %%
SOURCES = {
    "philly": ["philly/pollux_philly.csv"],
    "alibaba-openb": ["alibaba_gpu_v2023_openb/csv/openb_pod_list_default.csv"],
    "alibaba-pai": ["alibaba_pai_gpu_v2020/simulator_trace_head/"
                    "pai_job_duration_estimate_100K.head133.csv"],
    "helios": ["helios/readme_examples/cluster_log.example.csv"],
    "acme-seren": ["acme/readme_examples/trace_seren.example.csv"],
}
traces = {}
for name, files in SOURCES.items():
    path = ingest(f"tour-{name}", *[f"{TRACES}/{f}" for f in files])
    traces[name] = tracetune.read_trace(f"{OUT}/{path}")

# %%
stats = {name: tsv(sh("tt-stats", f"tour-{name}.h5")).set_index("metric")["value"]
         for name in traces}
summary = pd.DataFrame(stats).loc[["jobs", "gpu_hours", "span_days", "mean_gpus", "max_gpus",
                                   "mean_duration_s", "offered_load_gpus", "vcs", "users"]]
summary

# %% [markdown]
# ## GPU-hours by job size
#
# Share of each trace's GPU-hours (and jobs) by the number of GPUs a job asks for, from
# `tt-stats -s gpus`. Network-sensitive placement matters only for jobs larger than a node.

# %%
rows = []
for name in traces:
    t = tsv(sh("tt-stats", "-s", "gpus", f"tour-{name}.h5"))
    t["trace"] = name
    rows.append(t)
by_gpus = pd.concat(rows)
by_gpus.head(12)

# %%
jobs = pd.concat([df.assign(trace=name) for name, df in traces.items()])
jobs["gpu_hours"] = jobs["gpus"] * jobs["duration"] / 3600
bucket = pd.cut(jobs["gpus"], [0, 1, 2, 4, 8, 16, 32, np.inf],
                labels=["1", "2", "3-4", "5-8", "9-16", "17-32", ">32"])
share = (jobs.groupby(["trace", bucket], observed=False)["gpu_hours"].sum()
         .unstack().fillna(0))
share = share.div(share.sum(axis=1), axis=0).loc[list(traces)]
fig, ax = plt.subplots(figsize=(8, 3.5))
share.plot.barh(stacked=True, ax=ax, colormap="viridis")
ax.set_xlabel("share of GPU-hours")
ax.set_title("GPU-hours by job size (GPUs)")
ax.legend(title="GPUs", bbox_to_anchor=(1, 1))
save(fig, "tour-gpu-hours")
share.round(3)

# %% [markdown]
# ## Duration and size
#
# CDFs of job duration (log scale) and of GPUs per job.

# %%
fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.5))
for name, df in traces.items():
    d = np.sort(df["duration"].to_numpy(dtype=float))
    g = np.sort(df["gpus"].to_numpy(dtype=float))
    y = np.arange(1, len(d) + 1) / len(d)
    a.step(np.maximum(d, 1), y, where="post", label=f"{name} ({len(d)})")
    b.step(g, y, where="post", label=name)
a.set_xscale("log"); a.set_xlabel("duration (s)"); a.set_ylabel("CDF of jobs")
b.set_xscale("log", base=2); b.set_xlabel("GPUs per job")
a.legend(fontsize=8)
save(fig, "tour-cdf")
pd.DataFrame({n: df["duration"].describe(percentiles=[.5, .9, .99]) for n, df in traces.items()})

# %% [markdown]
# ## Diurnal load
#
# GPUs asked for by the jobs submitted in each hour of the day (local time of the trace where the
# file gives clock times: Philly in America/Los_Angeles, Helios in Asia/Shanghai; openb and PAI
# submit times are offsets, so their "hour" is relative to the first job). Only the traces with
# at least 1,000 jobs: a day of a handful of example jobs says nothing.

# %%
fig, ax = plt.subplots(figsize=(8, 3.5))
for name, df in ((n, df) for n, df in traces.items() if len(df) >= 1000):
    base = df.attrs.get("time_base", "")
    tz = df.attrs.get("timezone", "UTC") if base == "unix" else None
    t = pd.to_datetime(df["submit"].to_numpy(dtype="int64"), unit="s", utc=True)
    hour = t.tz_convert(tz).hour if tz and tz != "UTC" else t.hour
    demand = pd.Series(df["gpus"].to_numpy(dtype=float)).groupby(np.asarray(hour)).sum()
    demand = demand.reindex(range(24), fill_value=0)
    ax.plot(demand.index, demand / demand.sum(), marker=".", label=name)
ax.set_xlabel("hour of submission"); ax.set_ylabel("share of GPUs asked")
ax.legend(fontsize=8)
save(fig, "tour-diurnal")
{name: dict(time_base=df.attrs.get("time_base"), timezone=df.attrs.get("timezone")) for name, df in traces.items()}

# %% [markdown]
# ## Demand per virtual cluster
#
# GPU-hours per VC where the trace names VCs (Philly's 15 VCs; the Helios examples).

# %%
with_vc = {n: df for n, df in traces.items() if df["vc"].notna().any()}
fig, axes = plt.subplots(1, len(with_vc), figsize=(5 * len(with_vc), 3.5), squeeze=False)
for ax, (name, df) in zip(axes[0], with_vc.items()):
    gh = (df["gpus"] * df["duration"] / 3600).groupby(df["vc"]).sum().sort_values()
    gh.plot.barh(ax=ax)
    ax.set_title(name); ax.set_xlabel("GPU-hours")
save(fig, "tour-vc")
with_vc["philly"].assign(gpu_hours=lambda d: d["gpus"] * d["duration"] / 3600) \
    .groupby("vc")["gpu_hours"].agg(["count", "sum"]).sort_values("sum", ascending=False).round(0)
