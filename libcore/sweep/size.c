/* The size study (tt/size.h): its target, its cluster sizes and policies,
 * which size is the smallest that meets the target, and the runs. Its
 * outputs are in sizefile.c. */
#include "tt/size.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tt/parse.h"
#include "tt/sweep.h"

/* ---- the target ---- */

int tt_size_target_parse(tt_ctx *ctx, const char *s, tt_size_target *t)
{
    const char *op = strpbrk(s, "<>");
    if (!op || op[1] != '=')
        return tt_err(ctx, TT_EINVAL, "expected METRIC<=VALUE or METRIC>=VALUE, got '%s'", s);
    int m = -1;
    for (int i = 0; i < TT_NMETRICS; i++)
        if (strlen(tt_metric_names[i]) == (size_t)(op - s) &&
            strncmp(tt_metric_names[i], s, (size_t)(op - s)) == 0)
            m = i;
    if (m < 0) {
        char names[1024] = "";
        for (int i = 0; i < TT_NMETRICS; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     i ? ", " : "", tt_metric_names[i]);
        return tt_err(ctx, TT_EINVAL, "unknown metric '%.*s' (the metrics: %s)",
                      (int)(op - s), s, names);
    }
    double v;
    if (tt_parse_f64(op + 2, &v))
        return tt_err(ctx, TT_EINVAL, "'%s': expected a finite number after %.2s", op + 2, op);
    t->metric = m;
    t->ge = *op == '>';
    t->value = v;
    return 0;
}

void tt_size_target_format(const tt_size_target *t, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s%.17g", tt_metric_names[t->metric], t->ge ? ">=" : "<=", t->value);
}

int tt_size_meets(const tt_size_target *t, const tt_metrics *m)
{
    if (!tt_metric_defined(m, t->metric))
        return 0;
    double v = tt_metric_value(m, t->metric);
    return t->ge ? v >= t->value : v <= t->value;
}

int tt_size_smallest(const int *meets, int n, int *stable)
{
    int all = 1, first = -1;
    for (int i = n - 1; i >= 0; i--) {
        all = all && meets[i];
        if (stable)
            stable[i] = all;
        if (meets[i])
            first = i;
    }
    return first;
}

/* ---- sizes ---- */

int64_t tt_size_gpus(const tt_cluster *c)
{
    return (int64_t)c->racks * c->nodes_per_rack * c->gpus_per_node;
}

void tt_size_sort(tt_cluster *c, int n)
{
    for (int i = 1; i < n; i++) { /* insertion: stable, and n is small */
        tt_cluster v = c[i];
        int k = i;
        for (; k > 0 && tt_size_gpus(&c[k - 1]) > tt_size_gpus(&v); k--)
            c[k] = c[k - 1];
        c[k] = v;
    }
}

/* The node counts of spec into counts (at most TT_SIZE_MAX); their number,
 * or -1 with why set. */
static int node_counts(const char *spec, int64_t *counts, char *why, size_t size)
{
    char buf[256];
    if (strlen(spec) >= sizeof buf) {
        snprintf(why, size, "too long");
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", spec);
    char *c1 = strchr(buf, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (c1 && c2 && !strchr(c2 + 1, ':') && !strchr(buf, ',')) {
        int64_t a, b, n;
        *c1 = *c2 = '\0';
        if (tt_parse_i64(buf, &a) || tt_parse_i64(c1 + 1, &b) || tt_parse_i64(c2 + 1, &n) ||
            a < 1 || b < 1 || n < 1 || n > TT_SIZE_MAX) {
            snprintf(why, size, "expected A:B:N with A, B >= 1 and N 1 .. %d", TT_SIZE_MAX);
            return -1;
        }
        for (int64_t i = 0; i < n; i++)
            counts[i] = tt_sweep_linear_value(a, b, n, i);
        return (int)n;
    }
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (n == TT_SIZE_MAX || tt_parse_i64(tok, &counts[n]) || counts[n] < 1) {
            snprintf(why, size, "expected A:B:N or a list of node counts >= 1 (at most %d)",
                     TT_SIZE_MAX);
            return -1;
        }
        n++;
    }
    if (!n)
        snprintf(why, size, "no node count");
    return n ? n : -1;
}

int tt_size_nodes(tt_ctx *ctx, const tt_cluster *shape, const char *spec, tt_cluster **out,
                  int *n)
{
    *out = NULL;
    *n = 0;
    char why[160];
    int64_t *counts = (int64_t *)malloc(TT_SIZE_MAX * sizeof *counts);
    if (!counts)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    int m = node_counts(spec, counts, why, sizeof why);
    tt_cluster *c = m > 0 ? (tt_cluster *)malloc((size_t)m * sizeof *c) : NULL;
    int rc = m < 0 ? tt_err(ctx, TT_EINVAL, "--nodes '%s': %s", spec, why)
             : !c  ? tt_err(ctx, TT_ENOMEM, "out of memory")
                   : 0;
    for (int i = 0; !rc && i < m; i++) {
        int64_t per = counts[i] / shape->racks;
        if (counts[i] % shape->racks)
            rc = tt_err(ctx, TT_EINVAL, "--nodes '%s': %lld nodes cannot be spread evenly over "
                        "the %d racks of the shape (-c)", spec, (long long)counts[i],
                        (int)shape->racks);
        else if (counts[i] > TT_MAX_CLUSTER_GPUS / shape->gpus_per_node)
            rc = tt_err(ctx, TT_EINVAL, "--nodes '%s': %lld nodes of %d GPUs are more than "
                        "%d GPUs", spec, (long long)counts[i], (int)shape->gpus_per_node,
                        TT_MAX_CLUSTER_GPUS);
        else
            c[i] = (tt_cluster){shape->racks, (int32_t)per, shape->gpus_per_node};
    }
    free(counts);
    if (rc) {
        free(c);
        return rc;
    }
    tt_size_sort(c, m);
    *out = c;
    *n = m;
    return 0;
}

/* ---- policies ---- */

/* The message in ctx, after head: "head: message". Returns code. */
static int prefix(tt_ctx *ctx, int code, const char *head)
{
    char m[1024];
    snprintf(m, sizeof m, "%s", tt_errmsg(ctx));
    return tt_err(ctx, code, "%s: %s", head, m);
}

/* Sets "NAME=VALUE" on p; its message names the policy spec. */
/* The message in ctx as one about policy spec. TT_EINVAL. */
static int policy_err(tt_ctx *ctx, const char *spec)
{
    char head[160];
    snprintf(head, sizeof head, "-P '%.120s'", spec);
    return prefix(ctx, TT_EINVAL, head);
}

static int set_one(tt_ctx *ctx, const tt_models *models, tt_params *p, const char *spec,
                   const char *nv)
{
    const char *eq = strchr(nv, '=');
    char name[64];
    if (!eq || eq == nv || (size_t)(eq - nv) >= sizeof name)
        return tt_err(ctx, TT_EINVAL, "-P '%s': expected -p NAME=VALUE, got '%s'", spec, nv);
    snprintf(name, sizeof name, "%.*s", (int)(eq - nv), nv);
    return tt_params_set(ctx, p, models, name, eq + 1) ? policy_err(ctx, spec) : 0;
}

/* The NAME=VALUE words after "LABEL:" in rest (a copy, cut in place)
 * into v (at most max); their count, or -1 with a message in ctx. */
static int policy_words(tt_ctx *ctx, const char *spec, char *rest, char **v, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(rest, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (strcmp(w, "-p") == 0 && !(w = strtok_r(NULL, " \t", &save)))
            return tt_err(ctx, TT_EINVAL, "-P '%s': -p without NAME=VALUE", spec), -1;
        else if (strncmp(w, "-p", 2) == 0 && w[2])
            w += 2;
        else if (w[0] == '-' || !strchr(w, '='))
            return tt_err(ctx, TT_EINVAL, "-P '%s': '%s': expected -p NAME=VALUE", spec, w), -1;
        if (n == max)
            return tt_err(ctx, TT_EINVAL, "-P '%s': more than %d settings", spec, max), -1;
        v[n++] = w;
    }
    return n;
}

int tt_size_policy_parse(tt_ctx *ctx, const tt_models *models, const char *spec,
                         const char *const *fixed, int nfixed, tt_size_policy *out)
{
    char copy[4096], *v[128];
    if (strlen(spec) >= sizeof copy)
        return tt_err(ctx, TT_EINVAL, "-P: longer than %d characters", (int)sizeof copy - 1);
    snprintf(copy, sizeof copy, "%s", spec);
    char *colon = strchr(copy, ':'), *label = copy;
    const char *preset = NULL;
    int n = 0;
    if (colon) {
        *colon = '\0';
        if ((n = policy_words(ctx, spec, colon + 1, v, 128)) < 0)
            return TT_EINVAL;
        for (int i = 0; i < n; i++)
            if (strncmp(v[i], "preset=", 7) == 0)
                preset = v[i] + 7;
    } else
        preset = copy;
    label += strspn(label, " \t");
    for (size_t k = strlen(label); k > 0 && strchr(" \t", label[k - 1]); k--)
        label[k - 1] = '\0';
    if (!*label || strlen(label) >= sizeof out->label || strpbrk(label, "\t\n\r"))
        return tt_err(ctx, TT_EINVAL, "-P '%s': the label must be 1 .. %d characters, "
                      "no tab or newline", spec, (int)sizeof out->label - 1);
    snprintf(out->label, sizeof out->label, "%s", label);
    tt_params_default(&out->p);
    if (preset && tt_params_preset(ctx, &out->p, preset))
        return policy_err(ctx, spec);
    for (int i = 0; i < nfixed; i++)
        if (set_one(ctx, models, &out->p, spec, fixed[i]))
            return TT_EINVAL;
    for (int i = 0; i < n; i++)
        if (strncmp(v[i], "preset=", 7) != 0 && set_one(ctx, models, &out->p, spec, v[i]))
            return TT_EINVAL;
    return 0;
}

/* ---- the runs ---- */

/* tt_run's source: the policies, named by their labels. */
static int policy_params(void *arg, tt_ctx *ctx, int64_t i, tt_params *p)
{
    (void)ctx;
    *p = ((const tt_size_policy *)arg)[i].p;
    return 0;
}

static void policy_label(void *arg, int64_t i, char *buf, size_t size)
{
    snprintf(buf, size, "policy '%s'", ((const tt_size_policy *)arg)[i].label);
}

/* The sizes shared out among worker threads, each running one size's
 * policies at a time with tt_run (its own threads among them). */
typedef struct {
    const tt_cluster *sizes;
    int nsizes, npol;
    tt_run_source src;
    const tt_models *models;
    const tt_sim_jobs *j;
    tt_run_opts opts; /* threads: each run's */
    tt_metrics *metrics;
    pthread_mutex_t mu;
    int next;       /* the next size to take */
    int fail, code; /* the lowest failing size (-1: none) and its code */
    char msg[1024];
} size_pool;

/* Records size s's failure when it is the lowest so far. */
static void pool_fail(size_pool *P, int s, int code, const char *msg)
{
    pthread_mutex_lock(&P->mu);
    if (P->fail < 0 || s < P->fail) {
        P->fail = s;
        P->code = code;
        snprintf(P->msg, sizeof P->msg, "%s", msg);
    }
    pthread_mutex_unlock(&P->mu);
}

static void *size_worker(void *arg)
{
    size_pool *P = (size_pool *)arg;
    tt_ctx *ctx = tt_ctx_create();
    tt_metrics *m = (tt_metrics *)calloc((size_t)P->npol, sizeof *m);
    for (;;) {
        pthread_mutex_lock(&P->mu);
        /* after a failure no further size starts */
        int s = P->fail < 0 && P->next < P->nsizes ? P->next++ : -1;
        pthread_mutex_unlock(&P->mu);
        if (s < 0)
            break;
        if (!ctx || !m) {
            pool_fail(P, s, TT_ENOMEM, "out of memory");
            break;
        }
        int rc = tt_run(ctx, &P->sizes[s], P->models, P->j, &P->src, P->npol, &P->opts, m);
        if (rc) {
            pool_fail(P, s, rc, tt_errmsg(ctx));
            break;
        }
        for (int p = 0; p < P->npol; p++)
            P->metrics[(int64_t)p * P->nsizes + s] = m[p];
    }
    free(m);
    tt_ctx_free(ctx);
    return NULL;
}

int tt_size_run(tt_ctx *ctx, const tt_cluster *sizes, int nsizes, const tt_size_policy *pol,
                int npol, const tt_models *models, const tt_sim_jobs *j,
                const tt_run_opts *opts, tt_metrics *metrics)
{
    if (nsizes <= 0 || npol <= 0)
        return 0;
    /* threads go to the policies of a size first, then to more sizes at
     * once: T threads run max(1, T / npol) sizes together (at most
     * nsizes), each size's run with an equal share of T */
    int threads = opts->threads > 0 ? opts->threads : tt_run_cpus();
    int workers = threads / npol < 1 ? 1 : threads / npol;
    if (workers > nsizes)
        workers = nsizes;
    size_pool P = {.sizes = sizes, .nsizes = nsizes, .npol = npol,
                   .src = {policy_params, policy_label, (void *)pol}, .models = models, .j = j,
                   .opts = *opts, .metrics = metrics};
    P.opts.threads = threads / workers < 1 ? 1 : threads / workers;
    P.opts.used = NULL; /* several runs at once: none says which device */
    P.fail = -1;
    pthread_mutex_init(&P.mu, NULL);
    pthread_t tid[TT_RUN_MAX_THREADS];
    int started = 0;
    for (; started < workers - 1; started++)
        if (pthread_create(&tid[started], NULL, size_worker, &P))
            break; /* fewer workers: the sizes still all run */
    size_worker(&P);
    for (int w = 0; w < started; w++)
        pthread_join(tid[w], NULL);
    pthread_mutex_destroy(&P.mu);
    if (P.fail < 0)
        return 0;
    tt_err(ctx, P.code, "%s", P.msg);
    if (P.code != TT_ESTOPPED) {
        char head[80];
        memcpy(head, "cluster ", 8);
        tt_cluster_format(&sizes[P.fail], head + 8, sizeof head - 8);
        prefix(ctx, P.code, head);
    }
    return P.code;
}
