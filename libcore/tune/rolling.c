/* Rolling re-tuning (tt/tune.h): the trace cut into windows by submit
 * time, a search on each, each window's choice simulated on the next
 * beside the best static choice in hindsight, strict consolidation and
 * the first window's choice; its TSV and summary lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt/tune.h"
#include "tune/tune_impl.h"

const char *const tt_tune_roll_names[TT_ROLL_N] = {"choice", "hindsight", "strict", "first"};

/* ---- the windows ---- */

void tt_tune_rolling_free(tt_tune_rolling *r)
{
    if (!r)
        return;
    for (int64_t k = 0; k < r->n; k++) {
        if (r->t)
            tt_tune_free(r->t[k]);
        if (r->jobs)
            tt_sim_jobs_free(&r->jobs[k]);
    }
    free(r->t);
    free(r->jobs);
    free(r->w);
    memset(r, 0, sizeof *r);
}

/* "4.1 days", "18 hours", "50 minutes", "40 s": a span for a message. */
static void span_text(int64_t s, char *buf, size_t size)
{
    if (s >= 2 * 86400)
        snprintf(buf, size, "%.1f days", (double)s / 86400.0);
    else if (s >= 2 * 3600)
        snprintf(buf, size, "%.1f hours", (double)s / 3600.0);
    else if (s >= 120)
        snprintf(buf, size, "%.1f minutes", (double)s / 60.0);
    else
        snprintf(buf, size, "%lld s", (long long)s);
}

/* The windows of j with jobs into r->w (r->n of them), r->empty those
 * without. 0, TT_ERANGE (fewer than two), TT_ENOMEM. */
static int cut_windows(tt_ctx *ctx, tt_tune_rolling *r, const tt_sim_jobs *j, int64_t width)
{
    if (j->n < 1)
        return tt_err(ctx, TT_ERANGE, "the trace has no job: no window to tune on");
    int64_t t0 = j->submit[0], last = (j->submit[j->n - 1] - t0) / width, n = 0;
    for (int64_t i = 0; i < j->n; i++) /* windows with jobs: where the index changes */
        n += i == 0 || (j->submit[i] - t0) / width != (j->submit[i - 1] - t0) / width;
    if (n < 2) {
        char span[64], w[64];
        span_text(j->submit[j->n - 1] - t0, span, sizeof span);
        span_text(width, w, sizeof w);
        return tt_err(ctx, TT_ERANGE, "the trace's %lld jobs are submitted over %s: one window "
                      "of %s, none to apply its choice to", (long long)j->n, span, w);
    }
    if (!(r->w = (tt_tune_window *)calloc((size_t)n, sizeof *r->w)))
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    int64_t k = -1;
    for (int64_t i = 0; i < j->n; i++) {
        int64_t idx = (j->submit[i] - t0) / width;
        if (k < 0 || idx * width != r->w[k].start) {
            tt_tune_window *w = &r->w[++k];
            w->start = idx * width;
            w->end = w->start + width;
            w->a = i;
            w->choice = -1;
            w->forms = -1;
            w->room = 0;
            for (int q = 0; q < TT_ROLL_N; q++)
                w->row[q] = -1;
        }
        r->w[k].b = i + 1;
    }
    r->n = n;
    r->width = width;
    r->empty = last + 1 - n;
    return 0;
}

int tt_tune_rolling_init(tt_ctx *ctx, tt_tune_rolling *r, const tt_sim_jobs *j, int64_t width,
                         const tt_params *base, const tt_tune_dim *dims, int ndims,
                         const tt_objective *obj, const tt_cluster *cluster,
                         const tt_models *models)
{
    memset(r, 0, sizeof *r);
    if (width < 1)
        return tt_err(ctx, TT_EINVAL, "a rolling window of %lld s", (long long)width);
    if (obj->nconds > 0)
        return tt_err(ctx, TT_EINVAL, "--rolling: the objective '%s' has conditions: a 'best' "
                      "bound differs from window to window, so a static choice over them has no "
                      "ranking (tune the objective alone)", tt_objective_text(obj));
    int rc = cut_windows(ctx, r, j, width);
    if (rc)
        return rc;
    r->jobs = (tt_sim_jobs *)calloc((size_t)r->n, sizeof *r->jobs);
    r->t = (tt_tune **)calloc((size_t)r->n, sizeof *r->t);
    if (!r->jobs || !r->t)
        rc = tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int64_t k = 0; k < r->n && !rc; k++) {
        rc = tt_tune_slice(ctx, j, r->w[k].a, r->w[k].b, &r->jobs[k]);
        if (!rc)
            rc = tt_tune_create(ctx, base, dims, ndims, obj, &r->t[k]);
        if (!rc && k == 0 && tt_tune_grid_size(r->t[0]) > TT_TUNE_EXACT_POINTS)
            rc = tt_err(ctx, TT_EINVAL, "--rolling: the grid has %lld points; the best static "
                        "choice in hindsight looks at every one, at most %lld",
                        (long long)tt_tune_grid_size(r->t[0]), (long long)TT_TUNE_EXACT_POINTS);
        if (!rc && cluster)
            rc = tt_tune_set_canon(ctx, r->t[k], cluster, models, &r->jobs[k]);
    }
    if (rc)
        tt_tune_rolling_free(r); /* what was made: the rest is zero */
    return rc;
}

/* ---- the run ---- */

/* "window 3 (days 14 to 21)": a window in messages. */
static void window_name(const tt_tune_rolling *r, int64_t k, char *buf, size_t size)
{
    snprintf(buf, size, "window %lld (days %.4g to %.4g)", (long long)k,
             (double)r->w[k].start / 86400.0, (double)r->w[k].end / 86400.0);
}

/* Puts the window's name before the message in ctx (a window's error). */
static int in_window(tt_ctx *ctx, const tt_tune_rolling *r, int64_t k, int rc)
{
    if (!rc || rc == TT_ESTOPPED || rc == TT_ENOMEM)
        return rc;
    char name[96], msg[1024];
    window_name(r, k, name, sizeof name);
    snprintf(msg, sizeof msg, "%s", tt_errmsg(ctx));
    return tt_err(ctx, rc, "%s: %s", name, msg);
}

/* The row on window t of lattice point p's configuration: its own row, or
 * one of its canonical form; -1 when neither was simulated. */
static int64_t point_row(const tt_tune *t, const tt_params *p)
{
    int64_t row = tt_tune_cache_find(t, p);
    if (row >= 0)
        return row;
    tt_params f;
    tt_tune_form(t, p, &f);
    return tt_tune_form_find(t, &f);
}

/* The lattice point id's form, for the set of the grid's forms. */
static const tt_params *grid_form(void *arg, int64_t id, tt_params *scratch)
{
    const tt_tune *t = (const tt_tune *)arg;
    tt_params p;
    tt_tune_point(t, id, &p);
    tt_tune_form(t, &p, scratch);
    return scratch;
}

/* Simulates on t every distinct form of the grid that no row has yet,
 * the first lattice point of each, in batches of batch. */
static int fill_grid(tt_ctx *ctx, tt_tune *t, const tt_tune_opts *o, int64_t batch,
                     tt_tune_eval_fn eval, void *arg)
{
    tt_cset set;
    tt_cset_init(&set, grid_form, t);
    tt_params *ps = (tt_params *)malloc((size_t)batch * sizeof *ps);
    int64_t np = 0;
    int rc = ps ? 0 : tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int64_t k = 0; k < t->grid && !rc; k++) {
        tt_params p, f;
        tt_tune_point(t, k, &p);
        if (point_row(t, &p) >= 0)
            continue;
        tt_tune_form(t, &p, &f);
        uint64_t h = tt_canon_hash(&f);
        if (tt_cset_find(&set, &f, h) >= 0)
            continue; /* one of this batch's forms, or an earlier batch's */
        if ((rc = tt_cset_add(ctx, &set, k, h)))
            break;
        ps[np++] = p;
        if (np == batch || k + 1 == t->grid) {
            if (o->stop && o->stop(o->stop_arg))
                rc = tt_err(ctx, TT_ESTOPPED, "stopped");
            else
                rc = tt_tune_add_rows(ctx, t, ps, NULL, np, PHASE_HINDSIGHT, 0, eval, arg);
            np = 0;
        }
    }
    if (!rc && np > 0)
        rc = tt_tune_add_rows(ctx, t, ps, NULL, np, PHASE_HINDSIGHT, 0, eval, arg);
    free(ps);
    tt_cset_free(&set);
    return rc;
}

/* The lattice point whose objectives over windows 1 .. n-1, weighted by
 * their jobs, are least, into r->hindsight_point (every form simulated). */
static int best_static(tt_ctx *ctx, tt_tune_rolling *r)
{
    int64_t g = r->t[0]->grid, best = -1;
    double least = 0;
    for (int64_t id = 0; id < g; id++) {
        tt_params p;
        tt_tune_point(r->t[0], id, &p);
        double sum = 0;
        for (int64_t k = 1; k < r->n; k++) {
            int64_t row = point_row(r->t[k], &p);
            if (row < 0)
                return tt_err(ctx, TT_EINVAL, "lattice point %lld not simulated on window %lld",
                              (long long)id, (long long)k);
            sum += (double)(r->w[k].b - r->w[k].a) * r->t[k]->rows[row].objective;
        }
        if (!isnan(sum) && (best < 0 || sum < least)) {
            best = id;
            least = sum;
        }
    }
    if (best < 0)
        return tt_err(ctx, TT_EEMPTY, "no configuration of the grid has an objective over the "
                      "windows");
    r->hindsight_point = best;
    return 0;
}

int tt_tune_rolling_run(tt_ctx *ctx, tt_tune_rolling *r, const tt_tune_opts *opts,
                        tt_tune_eval_fn eval, void *const *args)
{
    tt_tune_opts o = *opts;
    o.phase = PHASE_SEARCH;
    int rc = 0;
    /* first every window's search, on a tuner that holds nothing else: the
     * choice a tt-tune on that slice alone makes */
    for (int64_t k = 0; k < r->n && !rc; k++) {
        tt_tune_window *w = &r->w[k];
        int64_t sims = r->t[k]->nsims;
        rc = in_window(ctx, r, k, tt_tune_search(ctx, r->t[k], &o, eval, args[k], &w->choice));
        w->sims_search = r->t[k]->nsims - sims;
        w->exact = r->t[k]->exact;
        w->forms = r->t[k]->forms;
        w->gain = r->t[k]->gain;
        w->room = r->t[k]->room;
        r->sims_search += w->sims_search;
    }
    /* on each later window: the choice before, the first's, strict */
    for (int64_t k = 1; k < r->n && !rc; k++) {
        tt_tune_window *w = &r->w[k];
        tt_params strict = tt_tune_every_class_waits(&r->t[k]->base, TT_INF);
        const tt_params *ps[] = {&r->t[k - 1]->rows[r->w[k - 1].choice].params,
                                 &r->t[0]->rows[r->w[0].choice].params, &strict};
        const int role[] = {TT_ROLL_CHOICE, TT_ROLL_FIRST, TT_ROLL_STRICT};
        int64_t sims = r->t[k]->nsims;
        for (int i = 0; i < 3 && !rc; i++)
            rc = in_window(ctx, r, k, tt_tune_eval(ctx, r->t[k], ps[i], PHASE_SINGLE, eval,
                                                   args[k], &w->row[role[i]]));
        r->sims_single += r->t[k]->nsims - sims;
    }
    /* the best static choice in hindsight: every form of the grid on each */
    int64_t batch = opts->batch > 0 ? opts->batch : tt_tune_default_batch(opts->budget);
    for (int64_t k = 1; k < r->n && !rc; k++) {
        int64_t sims = r->t[k]->nsims;
        rc = in_window(ctx, r, k, fill_grid(ctx, r->t[k], opts, batch, eval, args[k]));
        r->sims_hindsight += r->t[k]->nsims - sims;
    }
    if (!rc)
        rc = best_static(ctx, r);
    tt_params hs;
    if (!rc)
        tt_tune_point(r->t[0], r->hindsight_point, &hs);
    for (int64_t k = 1; k < r->n && !rc; k++) /* a row of its own: no simulation */
        rc = tt_tune_eval(ctx, r->t[k], &hs, PHASE_SINGLE, eval, args[k],
                          &r->w[k].row[TT_ROLL_HINDSIGHT]);
    /* the totals: each role's objectives weighted by the windows' jobs */
    r->total_jobs = 0;
    for (int q = 0; q < TT_ROLL_N; q++)
        r->total[q] = 0;
    for (int64_t k = 1; k < r->n && !rc; k++) {
        double jobs = (double)(r->w[k].b - r->w[k].a);
        r->total_jobs += r->w[k].b - r->w[k].a;
        for (int q = 0; q < TT_ROLL_N; q++)
            r->total[q] += jobs * r->t[k]->rows[r->w[k].row[q]].objective;
    }
    for (int q = 0; q < TT_ROLL_N && !rc; q++)
        r->total[q] /= (double)r->total_jobs;
    return rc;
}

/* ---- as text ---- */

/* Dimension d's value in p as tt-sim prints it. */
static void dim_text(const tt_tune *t, int d, const tt_params *p, const tt_models *models,
                     char *buf, size_t size)
{
    const tt_tune_dim *dim = &t->dims[d];
    if (dim->cls < 0) {
        tt_params_format(p, models, dim->param, buf, size);
        return;
    }
    int64_t v = tt_tune_dim_get(p, dim);
    if (v == TT_INF)
        snprintf(buf, size, "inf");
    else
        snprintf(buf, size, "%lld", (long long)v);
}

int tt_tune_rolling_tsv(FILE *f, const tt_tune_rolling *r, const tt_models *models)
{
    const tt_tune *t0 = r->t[0];
    fprintf(f, "window\tstart\tend\tjobs");
    for (int d = 0; d < t0->nd; d++)
        fprintf(f, "\t%s", t0->dims[d].name);
    fprintf(f, "\tobjective\texact\tsims\tnext_jobs");
    for (int q = 0; q < TT_ROLL_N; q++)
        fprintf(f, "\tnext_%s", tt_tune_roll_names[q]);
    fputc('\n', f);
    char buf[TT_PARAM_TEXT_MAX];
    int64_t exact = 0;
    for (int64_t k = 0; k < r->n; k++) {
        const tt_tune_window *w = &r->w[k];
        const tt_tune_row *c = &r->t[k]->rows[w->choice];
        fprintf(f, "%lld\t%lld\t%lld\t%lld", (long long)k, (long long)w->start,
                (long long)w->end, (long long)(w->b - w->a));
        for (int d = 0; d < t0->nd; d++) {
            dim_text(t0, d, &c->params, models, buf, sizeof buf);
            fprintf(f, "\t%s", buf);
        }
        fprintf(f, "\t%.6f\t%d\t%lld", c->objective, w->exact, (long long)w->sims_search);
        exact += w->exact;
        if (k + 1 == r->n) {
            fprintf(f, "\t\t\t\t\t\n");
            continue;
        }
        const tt_tune_window *x = &r->w[k + 1];
        fprintf(f, "\t%lld", (long long)(x->b - x->a));
        for (int q = 0; q < TT_ROLL_N; q++)
            fprintf(f, "\t%.6f", r->t[k + 1]->rows[x->row[q]].objective);
        fputc('\n', f);
    }
    fprintf(f, "total\t%lld\t%lld\t%lld", (long long)r->w[0].start,
            (long long)r->w[r->n - 1].end, (long long)(r->w[r->n - 1].b - r->w[0].a));
    for (int d = 0; d < t0->nd; d++)
        fputc('\t', f);
    fprintf(f, "\t\t%lld\t%lld\t%lld", (long long)exact, (long long)r->sims_search,
            (long long)r->total_jobs);
    for (int q = 0; q < TT_ROLL_N; q++)
        fprintf(f, "\t%.6f", r->total[q]);
    fputc('\n', f);
    return ferror(f) ? TT_EIO : 0;
}

void tt_tune_rolling_window_note(const tt_tune_rolling *r, int64_t k, char *buf, size_t size)
{
    const tt_tune_window *w = &r->w[k];
    char name[96], exact[256] = "", note[320];
    tt_tune_budget_note(w->gain, w->room, w->exact, w->sims_search, w->forms,
                        tt_tune_grid_size(r->t[k]), note, sizeof note);
    if (!w->exact && w->forms >= 0)
        snprintf(exact, sizeof exact, "not exact: the search ran %lld of the grid's %lld "
                 "distinct simulations (--budget %lld makes it exact)",
                 (long long)w->sims_search, (long long)w->forms, (long long)w->forms);
    else if (!w->exact)
        snprintf(exact, sizeof exact, "not exact: the search ran %lld simulations over a grid "
                 "of %lld points", (long long)w->sims_search,
                 (long long)tt_tune_grid_size(r->t[k]));
    if (size)
        buf[0] = '\0';
    if (!*exact && !*note)
        return;
    window_name(r, k, name, sizeof name);
    snprintf(buf, size, "%s: %s%s%s", name, exact, *exact && *note ? "; " : "", note);
}

void tt_tune_rolling_describe(const tt_tune_rolling *r, const char *label, char *buf,
                              size_t size)
{
    int64_t sims = 0, rows = 0, exact = 0;
    for (int64_t k = 0; k < r->n; k++) {
        sims += tt_tune_sims(r->t[k]);
        rows += tt_tune_rows(r->t[k]);
        exact += r->w[k].exact;
    }
    char shared[64] = "", empty[96] = "";
    if (rows != sims)
        snprintf(shared, sizeof shared, " for %lld configurations", (long long)rows);
    if (r->empty)
        snprintf(empty, sizeof empty, "; %lld window%s without jobs left out", (long long)r->empty,
                 r->empty == 1 ? "" : "s");
    snprintf(buf, size, "%lld simulations%s over %lld windows of %s (days %.4g to %.4g%s; "
             "search %lld, exact in %lld of %lld windows; the choices applied and the baselines "
             "%lld; the best static choice in hindsight %lld)", (long long)sims, shared,
             (long long)r->n, label, (double)r->w[0].start / 86400.0,
             (double)r->w[r->n - 1].end / 86400.0, empty, (long long)r->sims_search,
             (long long)exact, (long long)r->n, (long long)r->sims_single,
             (long long)r->sims_hindsight);
}

/* "2.31 % worse than NAME (12068.910000)", "better", or "ties with". */
static void against(double x, double b, const char *name, char *buf, size_t size)
{
    double pct = b != 0 ? 100.0 * fabs(x - b) / fabs(b) : NAN;
    if (x == b)
        snprintf(buf, size, "ties with %s (%.6f)", name, b);
    else if (isnan(pct))
        snprintf(buf, size, "%s than %s (%.6f)", x < b ? "better" : "worse", name, b);
    else
        snprintf(buf, size, "%.2f %% %s than %s (%.6f)", pct, x < b ? "better" : "worse", name,
                 b);
}

void tt_tune_rolling_verdict(const tt_tune_rolling *r, const char *label, char *buf,
                             size_t size)
{
    char h[160], s[160], f[160];
    const double *tot = r->total;
    against(tot[TT_ROLL_CHOICE], tot[TT_ROLL_HINDSIGHT], "the best static choice in hindsight",
            h, sizeof h);
    against(tot[TT_ROLL_CHOICE], tot[TT_ROLL_STRICT], "strict consolidation", s, sizeof s);
    against(tot[TT_ROLL_CHOICE], tot[TT_ROLL_FIRST], "the first window's choice", f, sizeof f);
    snprintf(buf, size, "over the %lld windows after the first (days %.4g to %.4g, %lld jobs) "
             "re-tuning every %s gives %s %.6f (the windows' mean weighted by their jobs): %s, "
             "%s and %s: re-tuning %s against the first window's choice", (long long)(r->n - 1),
             (double)r->w[1].start / 86400.0, (double)r->w[r->n - 1].end / 86400.0,
             (long long)r->total_jobs, label, tt_objective_text(r->t[0]->obj),
             tot[TT_ROLL_CHOICE], h, s, f,
             tot[TT_ROLL_CHOICE] < tot[TT_ROLL_FIRST] ? "paid off" : "did not pay off");
}
