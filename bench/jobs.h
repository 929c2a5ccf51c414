/* The jobs of a simulation as a plain binary file, so the GPU benchmark
 * runs where no HDF5 library is installed: "TTJOBS1\n", int64 n, then
 * submit[n], duration[n] (int64), gpus[n], cls[n] (int32), little-endian
 * as the machines that run it. Written by bench/jobs-export. */
#ifndef TT_BENCH_JOBS_H
#define TT_BENCH_JOBS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt/sim.h"

#define BENCH_JOBS_MAGIC "TTJOBS1\n"

static inline int bench_jobs_write(const char *path, const tt_sim_jobs *j)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t n = (size_t)j->n;
    int ok = fwrite(BENCH_JOBS_MAGIC, 1, 8, f) == 8 && fwrite(&j->n, 8, 1, f) == 1 &&
             fwrite(j->submit, 8, n, f) == n && fwrite(j->duration, 8, n, f) == n &&
             fwrite(j->gpus, 4, n, f) == n && fwrite(j->cls, 4, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* 0, or -1 (unreadable, not such a file, out of memory). */
static inline int bench_jobs_read(const char *path, tt_sim_jobs *j)
{
    memset(j, 0, sizeof *j);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char magic[8];
    int64_t n = -1;
    int ok = fread(magic, 1, 8, f) == 8 && memcmp(magic, BENCH_JOBS_MAGIC, 8) == 0 &&
             fread(&n, 8, 1, f) == 1 && n >= 0 && n < ((int64_t)1 << 31);
    if (ok) {
        size_t nn = (size_t)(n ? n : 1);
        j->n = n;
        j->submit = (int64_t *)malloc(nn * 8);
        j->duration = (int64_t *)malloc(nn * 8);
        j->gpus = (int32_t *)malloc(nn * 4);
        j->cls = (int32_t *)malloc(nn * 4);
        size_t k = (size_t)n;
        ok = j->submit && j->duration && j->gpus && j->cls && fread(j->submit, 8, k, f) == k &&
             fread(j->duration, 8, k, f) == k && fread(j->gpus, 4, k, f) == k &&
             fread(j->cls, 4, k, f) == k;
        for (int64_t i = 0; ok && i < n; i++)
            j->unknown_models += j->cls[i] < 0;
    }
    fclose(f);
    return ok ? 0 : -1;
}

#endif
