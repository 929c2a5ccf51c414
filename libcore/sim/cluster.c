/* The cluster a simulation runs on, as "RxNxG" or a cluster file, and the
 * reader of the small TSV tables that cluster and model files are. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/csv.h"
#include "sim/simconf.h"
#include "tt/parse.h"
#include "tt/sim.h"

/* ---- small TSV tables (cluster and model files) ---- */

/* A TT_EPARSE error prefixed with "FILE:LINE: ". */
int tt_conftab_fail(tt_conftab *t, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int64_t line = tt_src_lineno(t->src);
    return tt_err(t->ctx, TT_EPARSE, "%s:%lld: %s", tt_src_label(t->src),
                  (long long)(line ? line : 1), msg);
}

/* The next non-blank line split on tabs, fields trimmed: 1, 0 at the end,
 * or a negative code. */
static int table_row(tt_conftab *t, int *nf)
{
    char *line;
    for (;;) {
        int rc = tt_src_getline(t->src, t->ctx, &line, NULL);
        if (rc <= 0)
            return rc;
        if (line[strspn(line, " \t")] != '\0')
            break;
    }
    int n = tt_tab_split(line, t->f, MAX_FIELDS);
    if (n > MAX_FIELDS)
        return tt_conftab_fail(t, "%d fields, at most %d expected", n, MAX_FIELDS);
    for (int i = 0; i < n; i++)
        t->f[i] = tt_trim(t->f[i]);
    *nf = n;
    return 1;
}

/* Opens path (or takes the open source mem) and reads its header; idx[k]
 * gets the column of need[k], found by name. */
int tt_conftab_open(tt_conftab *t, tt_ctx *ctx, const char *path, tt_src *mem,
                    const char *const *need, int nneed, int *idx)
{
    memset(t, 0, sizeof *t);
    t->ctx = ctx;
    t->src = mem;
    int rc = mem ? 0 : tt_src_open(ctx, path, &t->src);
    if (rc)
        return rc;
    int n = 0;
    rc = table_row(t, &n);
    if (rc < 0)
        return rc;
    if (rc == 0)
        return tt_conftab_fail(t, "empty: no header line");
    for (int k = 0; k < nneed; k++) {
        const char *name = need[k][0] == '?' ? need[k] + 1 : need[k]; /* '?': optional */
        idx[k] = -1;
        for (int i = 0; i < n && idx[k] < 0; i++)
            if (strcmp(t->f[i], name) == 0)
                idx[k] = i;
        if (idx[k] < 0 && name == need[k])
            return tt_conftab_fail(t, "field '%s': no such column in the header", need[k]);
    }
    t->nh = n;
    return 0;
}

void tt_conftab_close(tt_conftab *t) { tt_src_close(t->src); }

/* The next data row, with exactly the header's field count. */
int tt_conftab_next(tt_conftab *t)
{
    int n = 0;
    int rc = table_row(t, &n);
    if (rc == 1 && n != t->nh)
        return tt_conftab_fail(t, "expected %d fields, got %d", t->nh, n);
    return rc;
}

/* An integer field in [min, max]; want describes the range. */
int tt_conftab_int(tt_conftab *t, const char *field, const char *text, int64_t min, int64_t max,
                   const char *want, int64_t *out)
{
    char buf[64];
    if (tt_parse_i64(text, out) || *out < min || *out > max)
        return tt_conftab_fail(t, "field '%s': expected %s, got '%s'", field, want,
                               tt_shown(text, buf, sizeof buf));
    return 0;
}

/* ---- the cluster ---- */

static const char *const cluster_fields[3] = {"racks", "nodes_per_rack", "gpus_per_node"};

/* Total GPUs of r x n x g, or -1 when past TT_MAX_CLUSTER_GPUS (each
 * factor is an int32 >= 1, so r * n cannot overflow). */
static int64_t cluster_gpus(const int64_t v[3])
{
    int64_t rn = v[0] * v[1];
    if (rn > TT_MAX_CLUSTER_GPUS || rn * v[2] > TT_MAX_CLUSTER_GPUS)
        return -1;
    return rn * v[2];
}

static void cluster_set(tt_cluster *c, const int64_t v[3])
{
    c->racks = (int32_t)v[0];
    c->nodes_per_rack = (int32_t)v[1];
    c->gpus_per_node = (int32_t)v[2];
}

/* "RxNxG": digits, signs and x only, so that "4x32" is a malformed
 * cluster rather than a file name. */
static int is_cluster_text(const char *s)
{
    return *s && strspn(s, "0123456789+-x") == strlen(s) && strchr(s, 'x');
}

static int cluster_text(tt_ctx *ctx, const char *spec, tt_cluster *c)
{
    char buf[64], part[3][32];
    const char *p = spec;
    int n = 0;
    for (;;) {
        size_t len = strcspn(p, "x");
        /* a part too long for any int32 is cut for the message (and fails) */
        if (n < 3 && len < sizeof part[n])
            snprintf(part[n], sizeof part[n], "%.*s", (int)len, p);
        else if (n < 3)
            snprintf(part[n], sizeof part[n], "%.20s...", p);
        n++;
        if (!p[len])
            break;
        p += len + 1;
    }
    if (n != 3)
        return tt_err(ctx, TT_EINVAL,
                      "cluster '%s': expected RxNxG (racks x nodes per rack x GPUs per node, "
                      "e.g. 4x32x8) or a cluster file",
                      tt_shown(spec, buf, sizeof buf));
    int64_t v[3];
    for (int i = 0; i < 3; i++)
        if (tt_parse_i64(part[i], &v[i]) || v[i] < 1 || v[i] > INT32_MAX)
            return tt_err(ctx, TT_EINVAL, "cluster '%s': field '%s': expected an integer "
                          "1 .. %d, got '%s'", tt_shown(spec, buf, sizeof buf), cluster_fields[i],
                          INT32_MAX, part[i]);
    if (cluster_gpus(v) < 0)
        return tt_err(ctx, TT_EINVAL, "cluster '%s': more than %d GPUs in all",
                      tt_shown(spec, buf, sizeof buf), TT_MAX_CLUSTER_GPUS);
    cluster_set(c, v);
    return 0;
}

static int cluster_file(tt_ctx *ctx, const char *path, tt_cluster *c)
{
    /* "4X32X8", " 4x32x8" or "4x32x8junk" are mistyped clusters more often
     * than missing files: say both what was expected and that no file is there */
    struct stat st;
    char buf[64];
    if (strcmp(path, "-") != 0 && stat(path, &st) != 0 && errno == ENOENT)
        return tt_err(ctx, TT_EINVAL,
                      "cluster '%s': not RxNxG (racks x nodes per rack x GPUs per node, "
                      "e.g. 4x32x8), and no cluster file of that name exists",
                      tt_shown(path, buf, sizeof buf));
    tt_conftab t;
    int idx[3];
    int64_t v[3];
    int rc = tt_conftab_open(&t, ctx, path, NULL, cluster_fields, 3, idx);
    if (!rc) {
        rc = tt_conftab_next(&t);
        if (rc == 0)
            rc = tt_conftab_fail(&t, "no data row: expected one row of racks "
                                     "nodes_per_rack gpus_per_node");
        else if (rc == 1)
            rc = 0;
    }
    for (int i = 0; i < 3 && !rc; i++)
        rc = tt_conftab_int(&t, cluster_fields[i], t.f[idx[i]], 1, INT32_MAX,
                            "an integer >= 1", &v[i]);
    if (!rc && cluster_gpus(v) < 0)
        rc = tt_conftab_fail(&t, "more than %d GPUs in all", TT_MAX_CLUSTER_GPUS);
    if (!rc) {
        int more = tt_conftab_next(&t);
        rc = more == 1 ? tt_conftab_fail(&t, "a second row: a cluster file has one row") : more;
    }
    if (!rc)
        cluster_set(c, v);
    tt_conftab_close(&t);
    return rc;
}

int tt_cluster_parse(tt_ctx *ctx, const char *spec, tt_cluster *c)
{
    return is_cluster_text(spec) ? cluster_text(ctx, spec, c) : cluster_file(ctx, spec, c);
}

void tt_cluster_format(const tt_cluster *c, char *buf, size_t size)
{
    snprintf(buf, size, "%dx%dx%d", c->racks, c->nodes_per_rack, c->gpus_per_node);
}
