/* tt/size.h: how many servers each policy needs. A size study simulates
 * every policy on every cluster size tried and reports, per policy, the
 * smallest size whose metric meets a target ("jct_p99<=3600"), and
 * whether every larger size tried meets it too: a metric need not be
 * monotone in the cluster's size, so the smallest size that meets the
 * target is "stable" only when no larger one misses it.
 *
 * Sizes are clusters, ordered by their GPUs (ties keep the order given).
 * Policies are parameter sets with a label. The target names any metric
 * of tt_metric_names, so metrics added to the engine need no change here.
 *
 * Thread safety: every function is reentrant; tt_size_run runs sizes on
 * threads of its own, each with the threads of tt_run (tt/run.h).
 */
#ifndef TT_SIZE_H
#define TT_SIZE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tt/error.h"
#include "tt/run.h"
#include "tt/sim.h"
#include "tt/trace.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

/* ---- the target ---- */

typedef struct {
    int metric;   /* index into tt_metric_names */
    int ge;       /* 1: met when metric >= value; 0: when metric <= value */
    double value; /* finite */
} tt_size_target;

/* "METRIC<=VALUE" or "METRIC>=VALUE" (no spaces; VALUE a finite decimal
 * number) into *t. 0, or TT_EINVAL with a message saying what is wrong
 * (an unknown metric lists the names). */
int tt_size_target_parse(tt_ctx *ctx, const char *s, tt_size_target *t);
/* The target as tt_size_target_parse reads it ("jct_p99<=3600"). */
void tt_size_target_format(const tt_size_target *t, char *buf, size_t size);
/* 1 when m meets t, 0 when not or when the metric cannot be computed. */
int tt_size_meets(const tt_size_target *t, const tt_metrics *m);

/* ---- sizes and policies ---- */

#define TT_SIZE_MAX 4096 /* sizes, and policies, in one study */

/* The clusters of --nodes spec over the shape: spec is A:B:N (node counts
 * as the sweep's linear grid makes them, tt_sweep_linear_value) or a
 * list a,b,c. A count n becomes shape's racks with n / racks nodes each
 * and shape's GPUs a node: n must be a multiple of the racks. *out
 * (malloc'ed, the caller's) gets *n clusters, sorted (tt_size_sort).
 * TT_EINVAL ("--nodes '...': ...") or TT_ENOMEM. */
int tt_size_nodes(tt_ctx *ctx, const tt_cluster *shape, const char *spec, tt_cluster **out,
                  int *n);
/* Sorts n clusters by GPUs, ties in their order (stable). */
void tt_size_sort(tt_cluster *c, int n);
int64_t tt_size_gpus(const tt_cluster *c);

/* A policy: a label and its parameter set. */
typedef struct {
    char label[64];
    tt_params p;
} tt_size_policy;

/* Policy spec into *out: either a preset name ("themis": label and preset
 * both that name) or "LABEL: -p NAME=VALUE ..." (words separated by
 * spaces; "-p" and its NAME=VALUE may be one word, "-pNAME=VALUE"). The
 * parameters: the defaults, then the policy's preset (a bare name, or its
 * -p preset=NAME), then fixed[0..nfixed) ("NAME=VALUE", every policy's),
 * then the policy's other -p in order: so the policy's own values win.
 * TT_EINVAL with "-P 'spec': reason". */
int tt_size_policy_parse(tt_ctx *ctx, const tt_models *models, const char *spec,
                         const char *const *fixed, int nfixed, tt_size_policy *out);

/* ---- the study ---- */

/* For meets[0..n) of one policy over its sizes in order: stable[i] = 1
 * when sizes i .. n-1 all meet. Returns the smallest i that meets, or -1
 * when none does (stable may be NULL). */
int tt_size_smallest(const int *meets, int n, int *stable);

/* Simulates every policy on every size (sizes sorted) with tt_run:
 * metrics[p * nsizes + s] gets those of policy p on size s. Of T =
 * opts->threads (<= 0: tt_run_cpus), the policies of a size run side by
 * side, and max(1, T / npol) sizes at once (at most nsizes), each with an
 * equal share of T; opts->used is not filled. The codes of tt_run (after a
 * failure no further size starts; the message is the lowest failing
 * size's); messages name the policy and the cluster. */
int tt_size_run(tt_ctx *ctx, const tt_cluster *sizes, int nsizes, const tt_size_policy *pol,
                int npol, const tt_models *models, const tt_sim_jobs *j,
                const tt_run_opts *opts, tt_metrics *metrics);

/* Everything a study's outputs hold; the caller keeps ownership. */
typedef struct {
    const tt_size_target *target;
    const tt_cluster *sizes;
    int nsizes;
    const tt_size_policy *pol;
    int npol;
    const tt_models *models;
    const tt_metrics *metrics;       /* npol * nsizes, as tt_size_run */
    const char *trace_path;          /* as named by the user */
    const tt_provenance *trace_prov; /* may be NULL */
} tt_size_study;

/* The TSV: a header, then a row per policy and size (policies in order,
 * sizes ascending): policy, cluster, nodes, gpus, target, meets (1/0),
 * smallest (1 on the policy's smallest size that meets), stable (1 when
 * this size and every larger one meet), then the columns of tt-sim
 * (tt_sim_tsv_row: the parameters, then every metric). 0 or TT_EIO. */
int tt_size_tsv(FILE *f, const tt_size_study *s);

/* One line per policy for stderr: "LABEL: 2x8x8 (128 GPUs), stable",
 * "..., not stable: 2x10x8 misses it" (the larger sizes that miss), or "LABEL: none of the sizes tried
 * (the largest, 2x16x8: jct_p99 7250)"; into buf. */
void tt_size_summary(const tt_size_study *s, int p, char *buf, size_t size);

/* Writes the study to path (HDF5, whole or not at all): group /size
 * (tracetune_layout "size/1"; attributes target, trace_file,
 * trace_format, trace_source_sha256, models_source, models_sha256,
 * tool_version) with /size/rows (policy, cluster text; racks,
 * nodes_per_rack, gpus_per_node, nodes, gpus, meets, smallest, stable
 * int64; /size/rows/params/<name>, /size/rows/metrics/<name> as a sweep
 * file's) and /size/result, a row per policy: policy, cluster ("" for
 * none), gpus and nodes (-1 for none), stable. 0, TT_EINVAL or TT_EIO. */
int tt_size_save(tt_ctx *ctx, const char *path, const tt_size_study *s);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
