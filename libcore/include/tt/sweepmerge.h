/* tt/sweepmerge.h: joins the shard files of one sweep (tt-sweep --shard
 * K/N -o) into the file the whole sweep would have written (layout of
 * tt/sweepfile.h).
 *
 * The shards must come from one sweep: equal tracetune_layout ("sweep/1"),
 * trace_source_sha256, trace_format, cluster, models_sha256, configurations
 * and configs_sha256 (a file without configs_sha256 is refused: nothing
 * would show it ran the same grid); shards "K/N" of one N, every K from 0
 * to N-1 exactly once; each file's /sweep/index exactly K, K+N, K+2N, ...
 * (tt_sweep_shard_count entries); the same datasets under /sweep/params
 * and /sweep/metrics with the same HDF5 types, one entry per row.
 *
 * The columns are copied generically (every dataset of the two groups with
 * its type and attributes), so a new parameter or metric needs no change
 * here. The group attributes are those of shard 0 except shard ("0/1"),
 * rows (= configurations), device (the distinct devices of the shards in
 * shard order, joined by "; "), elapsed_s (the sum over the shards: the
 * compute time spent), sims_per_s (rows / that sum, 0 when it is 0),
 * distinct_simulations (the sum over the shards, the simulations run: a
 * canonical form found in two shards ran in each; absent when a shard
 * with rows has none, as with tt-sweep --no-dedup) and merged_from (the
 * files as named, in shard order, joined by "\n"), so the output does
 * not depend on the order the files are given in.
 *
 * Not thread-safe (the HDF5 library is serial).
 */
#ifndef TT_SWEEPMERGE_H
#define TT_SWEEPMERGE_H

#include <stdint.h>

#include "tt/error.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

/* What a merge joined, for the caller's summary. */
typedef struct {
    int64_t shards;         /* N */
    int64_t configurations; /* rows of the output */
} tt_sweep_merge_info;

/* Checks the n shard files paths (any order) and writes out whole or not
 * at all (tt/outfile.h: a temporary file beside it, renamed at the end); an
 * existing out is replaced, unless it is one of the inputs or not a
 * regular file (tt_outfile_check, before anything is read: refused).
 * Messages name the file first: "s2.h5: cluster '1x2x4' differs from
 * '1x1x4' in s0.h5", "shard 2/4 missing". info may be NULL.
 * 0; TT_EINVAL (no files, out is an input); TT_EIO (unreadable input,
 * out not a regular file or not creatable, write failure); TT_EFORMAT (not a sweep file, files that do not form
 * one sweep); TT_ENOMEM. */
int tt_sweep_merge(tt_ctx *ctx, const char *out, const char *const *paths, int n,
                   tt_sweep_merge_info *info);

/* The same, opening files[i] but naming it paths[i] in messages and in
 * merged_from: a copy of standard input (tt/infile.h) is named "-". */
int tt_sweep_merge_named(tt_ctx *ctx, const char *out, const char *const *files,
                         const char *const *paths, int n, tt_sweep_merge_info *info);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
