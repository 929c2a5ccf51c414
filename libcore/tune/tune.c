/* The tuner (tt/tune.h): the search space, the cache of evaluated
 * configurations (the rows, each simulated once per canonical form), the
 * choice beside its baselines and the split of a trace into train and
 * test. The strategies that propose lattice points are search.c and
 * model.c; objectives, objective.c. */
#include "tt/tune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt/sweep.h"
#include "tune/tune_impl.h"

/* the lattice's size limit: ids and products stay far from overflow */
#define GRID_MAX ((int64_t)1 << 62)
#define INF_COORD 1.25

/* ---- the search space ---- */

static int param_index(const char *name)
{
    for (int i = 0; i < TT_NPARAMS; i++)
        if (strcmp(tt_param_names[i], name) == 0)
            return i;
    return -1;
}

static void param_put(tt_params *p, int i, int64_t v);

static void dim_put(tt_params *p, const tt_tune_dim *d, int64_t v)
{
    if (d->cls >= 0)
        (d->param == TT_P_W0 ? p->class_w0 : p->class_w1)[d->cls] = v;
    else
        param_put(p, d->param, v);
}

static void param_put(tt_params *p, int i, int64_t v) { tt_param_set_int(p, i, v); }

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int tt_tune_dim_parse(tt_ctx *ctx, const tt_models *models, const char *name, const char *spec,
                      tt_tune_dim *out)
{
    memset(out, 0, sizeof *out);
    char label[160];
    snprintf(label, sizeof label, "%.40s=%.100s%s", name, spec, strlen(spec) > 100 ? "..." : "");
    int i = param_index(name), which, cls = -1;
    int ct = i < 0 ? tt_params_class_timer_name(models, name, &which, &cls) : 0;
    if (ct == 1)
        i = TT_P_W0 + which;
    else
        cls = -1;
    if (ct < 0)
        return tt_err(ctx, TT_EINVAL, "range '%s': unknown model class '%s'", label, name + 3);
    if (i < 0 || !tt_tune_searchable(i)) {
        char names[TT_NPARAMS * 16] = "";
        size_t at = 0;
        for (int q = 0; q < TT_NPARAMS; q++)
            if (tt_tune_searchable(q) && at < sizeof names)
                at += (size_t)snprintf(names + at, sizeof names - at, "%s ", tt_param_names[q]);
        return tt_err(ctx, TT_EINVAL, "range '%s': %s (searchable: %sw0.CLASS w1.CLASS)", label,
                      i < 0 ? "unknown parameter" : "only integer parameters can be searched",
                      names);
    }
    /* the grid grammar takes a range ending in ",inf" (the tune's "never"
     * column); said here in the tuner's words for the other parameters */
    size_t len = strlen(spec);
    if (i > 3 && strchr(spec, ':') && len > 4 && strcmp(spec + len - 4, ",inf") == 0)
        return tt_err(ctx, TT_EINVAL, "range '%s': only w0, w1 and theta take inf", label);
    tt_sweep *s = NULL;
    int rc = tt_sweep_create(ctx, models, &s);
    if (rc)
        return rc;
    if ((rc = tt_sweep_grid(ctx, s, name, spec))) {
        /* "grid 'NAME=SPEC': reason" -> "range ...": the tool's word */
        char msg[1024];
        const char *m = tt_errmsg(ctx), *colon = strstr(m, "': ");
        snprintf(msg, sizeof msg, "%s", colon ? colon + 3 : m);
        tt_sweep_free(s);
        return tt_err(ctx, rc, "range '%s': %s", label, msg);
    }
    /* the values are copied (and read one by one) before repeats go */
    int64_t n = tt_sweep_count(s);
    if (n > TT_TUNE_MAX_VALUES) {
        tt_sweep_free(s);
        return tt_err(ctx, TT_EINVAL, "range '%s': %lld values, at most %lld in a dimension",
                      label, (long long)n, (long long)TT_TUNE_MAX_VALUES);
    }
    out->v = (int64_t *)malloc((size_t)(n ? n : 1) * sizeof *out->v);
    if (!out->v) {
        tt_sweep_free(s);
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    }
    out->param = i;
    out->cls = cls;
    snprintf(out->name, sizeof out->name, "%s", name);
    for (int64_t k = 0; k < n; k++) {
        tt_params p;
        tt_sweep_params(ctx, s, k, &p);
        out->v[k] = tt_tune_dim_get(&p, out);
    }
    tt_sweep_free(s);
    qsort(out->v, (size_t)n, sizeof *out->v, cmp_i64);
    int64_t u = 0;
    for (int64_t k = 0; k < n; k++)
        if (u == 0 || out->v[k] != out->v[u - 1])
            out->v[u++] = out->v[k];
    out->n = u;
    out->scale = !strchr(spec, ':') ? TT_TUNE_LIST
                 : strncmp(spec, "log:", 4) == 0 ? TT_TUNE_LOG
                                                 : TT_TUNE_LINEAR;
    return 0;
}

void tt_tune_dim_free(tt_tune_dim *d)
{
    if (!d)
        return;
    free(d->v);
    memset(d, 0, sizeof *d);
}

void tt_tune_space_init(tt_tune_space *sp, const tt_models *models)
{
    memset(sp, 0, sizeof *sp);
    sp->models = models;
    tt_params_default(&sp->base);
}

void tt_tune_space_free(tt_tune_space *sp)
{
    for (int d = 0; sp && d < sp->ndims; d++)
        tt_tune_dim_free(&sp->dims[d]);
}

/* The slot of name in sp->fixed: a parameter, or a class's own timer; -1
 * for any other name. */
static int fixed_slot(const tt_tune_space *sp, const char *name)
{
    int which, cls, i = param_index(name);
    if (i < 0 && tt_params_class_timer_name(sp->models, name, &which, &cls) == 1)
        i = TT_NPARAMS + 2 * cls + which;
    return i;
}

int tt_tune_space_fix(tt_ctx *ctx, tt_tune_space *sp, const char *name, const char *value)
{
    int rc = tt_params_set(ctx, &sp->base, sp->models, name, value), i = fixed_slot(sp, name);
    if (!rc && i >= 0)
        sp->fixed[i] = 1;
    return rc;
}

int tt_tune_space_search(tt_ctx *ctx, tt_tune_space *sp, const char *name, const char *range)
{
    int all = strcmp(name, "w0.*") == 0 || strcmp(name, "w1.*") == 0;
    int n = all ? tt_models_count(sp->models) : 1;
    for (int c = 0; c < n; c++) {
        char one[80]; /* "w0." and the class's name */
        if (all)
            snprintf(one, sizeof one, "%.3s%s", name, tt_models_name(sp->models, c));
        if (sp->ndims == TT_TUNE_MAX_DIMS)
            return tt_err(ctx, TT_ERANGE, "-s %s: more than %d searched parameters", name,
                          TT_TUNE_MAX_DIMS);
        int rc = tt_tune_dim_parse(ctx, sp->models, all ? one : name, range,
                                   &sp->dims[sp->ndims]);
        if (rc)
            return rc;
        sp->ndims++;
    }
    /* after the range, as the tool always said: a bad range is named first */
    int i = all ? -1 : fixed_slot(sp, name);
    if (i < 0 || !sp->fixed[i])
        return 0;
    tt_tune_dim_free(&sp->dims[--sp->ndims]);
    return tt_err(ctx, TT_EINVAL, "parameter '%s': both fixed with -p and searched with -s", name);
}

/* ---- the tuner and its cache ---- */

void tt_tune_form(const tt_tune *t, const tt_params *p, tt_params *f)
{
    if (t->have_canon)
        tt_canon_form(&t->canon, p, f);
    else
        *f = *p;
}

/* The form of row id, for the set of simulated rows. */
static const tt_params *row_form(void *arg, int64_t id, tt_params *scratch)
{
    const tt_tune *t = (const tt_tune *)arg;
    tt_tune_form(t, &t->rows[id].params, scratch);
    return scratch;
}

int64_t tt_tune_form_find(const tt_tune *t, const tt_params *f)
{
    return t->have_canon ? tt_cset_find(&t->sims, f, tt_canon_hash(f)) : -1;
}

int tt_tune_set_canon(tt_ctx *ctx, tt_tune *t, const tt_cluster *c, const tt_models *m,
                      const tt_sim_jobs *j)
{
    int rc = tt_canon_init(ctx, &t->canon, c, m, j);
    if (rc)
        return rc;
    t->have_canon = 1;
    tt_cset_clear(&t->sims);
    for (int64_t r = 0; r < t->nrows && !rc; r++) /* the rows simulated before */
        if (t->rows[r].sim_row == r) {
            tt_params f;
            tt_tune_form(t, &t->rows[r].params, &f);
            if (tt_tune_form_find(t, &f) < 0)
                rc = tt_cset_add(ctx, &t->sims, r, tt_canon_hash(&f));
        }
    return rc;
}

int64_t tt_tune_sims(const tt_tune *t) { return t->nsims; }

/* Row id's configuration itself, for the cache: keyed on its full
 * identity (tt_canon_equal and tt_canon_hash compare and hash every field
 * of tt_params), so that no parameter is left out of the key. */
static const tt_params *row_params(void *arg, int64_t id, tt_params *scratch)
{
    (void)scratch;
    return &((const tt_tune *)arg)->rows[id].params;
}

int64_t tt_tune_cache_find(const tt_tune *t, const tt_params *p)
{
    return tt_cset_find(&t->cache, p, tt_canon_hash(p));
}

/* Room for more rows. */
static int reserve_rows(tt_ctx *ctx, tt_tune *t, int64_t more)
{
    int64_t need = t->nrows + more;
    if (need > t->cap) {
        int64_t cap = t->cap ? t->cap : 64;
        while (cap < need)
            cap *= 2;
        tt_tune_row *r = (tt_tune_row *)realloc(t->rows, (size_t)cap * sizeof *r);
        if (!r)
            return tt_err(ctx, TT_ENOMEM, "out of memory for %lld rows", (long long)cap);
        t->rows = r;
        t->cap = cap;
    }
    return 0;
}

int tt_tune_create(tt_ctx *ctx, const tt_params *base, const tt_tune_dim *dims, int ndims,
                   const tt_objective *obj, tt_tune **out)
{
    *out = NULL;
    if (ndims < 1 || ndims > TT_TUNE_MAX_DIMS || !obj)
        return tt_err(ctx, TT_EINVAL, "a search needs 1 .. %d parameters and an objective",
                      TT_TUNE_MAX_DIMS);
    tt_tune *t = (tt_tune *)calloc(1, sizeof *t);
    if (!t)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    t->base = *base;
    t->obj = obj;
    t->grid = 1;
    t->forms = -1;
    tt_cset_init(&t->sims, row_form, t);
    tt_cset_init(&t->cache, row_params, t);
    int rc = 0;
    for (int d = 0; d < ndims && !rc; d++) {
        const tt_tune_dim *s = &dims[d];
        for (int e = 0; e < d; e++)
            if (dims[e].param == s->param && dims[e].cls == s->cls)
                rc = tt_err(ctx, TT_EINVAL, "parameter '%s' is searched twice", s->name);
        if (!rc && (s->n < 1 || t->grid > GRID_MAX / s->n))
            rc = tt_err(ctx, TT_EINVAL, "the grid has more than 2^62 points");
        if (rc)
            break;
        t->grid *= s->n;
        t->dims[d] = *s;
        t->dims[d].v = (int64_t *)malloc((size_t)s->n * sizeof *s->v);
        t->coord[d] = (double *)malloc((size_t)s->n * sizeof *t->coord[d]);
        t->nd = d + 1;
        if (!t->dims[d].v || !t->coord[d]) {
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
            break;
        }
        memcpy(t->dims[d].v, s->v, (size_t)s->n * sizeof *s->v);
        int64_t nf = s->n - (s->v[s->n - 1] == TT_INF); /* finite values */
        double lo = nf ? (double)s->v[0] : 0, hi = nf ? (double)s->v[nf - 1] : 0;
        if (s->scale == TT_TUNE_LOG && lo > 0) {
            lo = log(lo);
            hi = log(hi);
        }
        for (int64_t k = 0; k < s->n; k++) {
            double x = s->scale == TT_TUNE_LOG && s->v[k] > 0 ? log((double)s->v[k])
                                                               : (double)s->v[k];
            t->coord[d][k] = k >= nf                   ? INF_COORD
                             : nf < 2                  ? 0.0
                             : s->scale == TT_TUNE_LIST ? (double)k / (double)(nf - 1)
                                                        : (x - lo) / (hi - lo);
        }
    }
    if (rc) {
        tt_tune_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

void tt_tune_free(tt_tune *t)
{
    if (!t)
        return;
    for (int d = 0; d < t->nd; d++) {
        free(t->dims[d].v);
        free(t->coord[d]);
    }
    free(t->rows);
    tt_cset_free(&t->cache);
    tt_cset_free(&t->sims);
    free(t);
}

int64_t tt_tune_grid_size(const tt_tune *t) { return t->grid; }
int64_t tt_tune_default_budget(const tt_tune *t)
{
    int64_t b = t->grid / 10 > TT_TUNE_DEFAULT_BUDGET ? t->grid / 10 : TT_TUNE_DEFAULT_BUDGET;
    return b < t->grid ? b : t->grid;
}
int tt_tune_last_exact(const tt_tune *t) { return t->exact; }
int64_t tt_tune_grid_forms(const tt_tune *t) { return t->forms; }
int64_t tt_tune_rows(const tt_tune *t) { return t->nrows; }
double tt_tune_last_gain(const tt_tune *t) { return t->gain; }

double tt_tune_last_room(const tt_tune *t) { return t->room; }
const tt_tune_row *tt_tune_row_at(const tt_tune *t, int64_t i) { return &t->rows[i]; }

void tt_tune_point(const tt_tune *t, int64_t k, tt_params *p)
{
    int64_t idx[TT_TUNE_MAX_DIMS];
    tt_tune_id_to_idx(t, k, idx);
    *p = t->base;
    for (int d = 0; d < t->nd; d++)
        dim_put(p, &t->dims[d], t->dims[d].v[idx[d]]);
}

/* TT_EEMPTY when a metric of the objective cannot be computed in m: the
 * same for every configuration when no job is simulated (the cluster
 * alone rejects jobs), so there is nothing to tune. */
static int check_defined(tt_ctx *ctx, const tt_objective *o, const tt_metrics *m)
{
    for (int k = 0; k < o->nterms + o->nconds; k++) {
        int i = k < o->nterms ? o->metric[k] : o->conds[k - o->nterms].metric;
        if (!tt_metric_defined(m, i))
            return tt_err(ctx, TT_EEMPTY, "the objective's %s cannot be computed (%s): nothing "
                          "to tune", tt_metric_names[i],
                          tt_metrics_why_undefined(m));
    }
    return 0;
}

/* ps of a batch by form, for the batch's set of forms. */
typedef struct {
    const tt_tune *t;
    const tt_params *ps;
} batch_forms;

static const tt_params *batch_form(void *arg, int64_t id, tt_params *scratch)
{
    const batch_forms *b = (const batch_forms *)arg;
    tt_tune_form(b->t, &b->ps[id], scratch);
    return scratch;
}

/* Where the metrics of each of ps[0..n) come from: from[i] >= 0 a row of
 * t of its form, -1 its own simulation (the lead[i]-th of the batch's,
 * whose parameters go to sp), or -2 - k the simulation of ps[k] (k < i).
 * Without a trace every one is simulated. hash[i]: the form's hash. */
static int sort_batch(tt_ctx *ctx, const tt_tune *t, const tt_params *ps, int64_t n,
                      int64_t *from, int64_t *lead, uint64_t *hash, tt_params *sp, int64_t *nl)
{
    batch_forms bf = {t, ps};
    tt_cset set;
    tt_cset_init(&set, batch_form, &bf);
    int rc = 0;
    *nl = 0;
    for (int64_t i = 0; i < n && !rc; i++) {
        tt_params f;
        int64_t k = -1;
        from[i] = -1;
        if (t->have_canon) {
            tt_tune_form(t, &ps[i], &f);
            hash[i] = tt_canon_hash(&f);
            from[i] = tt_cset_find(&t->sims, &f, hash[i]);
            k = from[i] < 0 ? tt_cset_find(&set, &f, hash[i]) : -1;
        }
        if (k >= 0) {
            from[i] = -2 - k;
            lead[i] = lead[k];
        } else if (from[i] < 0) {
            lead[i] = *nl;
            sp[(*nl)++] = ps[i];
            if (t->have_canon)
                rc = tt_cset_add(ctx, &set, i, hash[i]);
        }
    }
    tt_cset_free(&set);
    return rc;
}

int tt_tune_add_rows(tt_ctx *ctx, tt_tune *t, const tt_params *ps, const double *pred,
                     int64_t n, int phase, int round, tt_tune_eval_fn eval, void *arg)
{
    if (n == 0)
        return 0;
    tt_metrics *m = (tt_metrics *)calloc((size_t)n, sizeof *m);
    tt_params *sp = (tt_params *)malloc((size_t)n * sizeof *sp);
    int64_t *from = (int64_t *)malloc((size_t)n * sizeof *from);
    int64_t *lead = (int64_t *)malloc((size_t)n * sizeof *lead), nl = 0;
    uint64_t *hash = (uint64_t *)malloc((size_t)n * sizeof *hash);
    int rc = m && sp && from && lead && hash ? reserve_rows(ctx, t, n)
                                              : tt_err(ctx, TT_ENOMEM, "out of memory");
    if (!rc)
        rc = sort_batch(ctx, t, ps, n, from, lead, hash, sp, &nl);
    if (!rc && nl > 0)
        rc = eval(arg, ctx, sp, nl, m);
    for (int64_t i = 0; i < nl && !rc; i++)
        rc = check_defined(ctx, t->obj, &m[i]);
    int64_t first = t->nrows;
    for (int64_t i = 0; i < n && !rc; i++) {
        tt_tune_row *r = &t->rows[t->nrows];
        memset(r, 0, sizeof *r);
        r->params = ps[i];
        r->metrics = from[i] >= 0 ? t->rows[from[i]].metrics : m[lead[i]];
        r->sim_row = from[i] >= 0 ? from[i] : from[i] == -1 ? first + i : first - 2 - from[i];
        r->objective = tt_objective_value(t->obj, &r->metrics);
        r->predicted = pred ? pred[i] : NAN;
        r->phase = phase;
        r->round = round;
        /* a configuration evaluated twice in one batch keeps its first row */
        if (tt_tune_cache_find(t, &r->params) < 0)
            rc = tt_cset_add(ctx, &t->cache, t->nrows, tt_canon_hash(&r->params));
        t->nrows++;
        if (!rc && r->sim_row == first + i && t->have_canon)
            rc = tt_cset_add(ctx, &t->sims, first + i, hash[i]);
    }
    if (!rc)
        t->nsims += nl;
    free(m);
    free(sp);
    free(from);
    free(lead);
    free(hash);
    return rc;
}

int tt_tune_eval(tt_ctx *ctx, tt_tune *t, const tt_params *p, int phase, tt_tune_eval_fn eval,
                 void *arg, int64_t *row)
{
    *row = tt_tune_cache_find(t, p);
    if (*row >= 0)
        return 0;
    int rc = tt_tune_add_rows(ctx, t, p, NULL, 1, phase, 0, eval, arg);
    if (!rc)
        *row = t->nrows - 1;
    return rc;
}

int tt_tune_eval_sim(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t count,
                     tt_metrics *out)
{
    const tt_tune_sim *e = (const tt_tune_sim *)arg;
    return tt_run_params(ctx, e->cluster, e->models, e->jobs, ps, count, e->opts, out);
}

int tt_tune_best_of_rows(const tt_tune *t, const int64_t *rows, int64_t n, int64_t *best,
                         int *feasible)
{
    tt_metrics *m = (tt_metrics *)malloc((size_t)(n > 0 ? n : 1) * sizeof *m);
    if (!m)
        return TT_ENOMEM;
    for (int64_t i = 0; i < n; i++)
        m[i] = t->rows[rows ? rows[i] : i].metrics;
    int64_t b = 0;
    int rc = tt_objective_best(t->obj, m, n, &b, feasible);
    free(m);
    if (!rc)
        *best = rows ? rows[b] : b;
    return rc;
}

int tt_tune_best_row(const tt_tune *t, int64_t *row, int *feasible)
{
    return tt_tune_best_of_rows(t, NULL, t->nrows, row, feasible);
}

int tt_tune_row_feasible(const tt_tune *t, int64_t row)
{
    double bound[TT_OBJ_MAX_CONDS];
    tt_obj_bounds(t->obj, &t->rows[0].metrics, sizeof *t->rows, t->nrows, bound);
    return tt_obj_violation(t->obj, bound, &t->rows[row].metrics) == 0.0;
}

void tt_tune_rows_feasible(const tt_tune *t, int64_t *feas)
{
    if (t->nrows == 0)
        return;
    double bound[TT_OBJ_MAX_CONDS];
    tt_obj_bounds(t->obj, &t->rows[0].metrics, sizeof *t->rows, t->nrows, bound);
    for (int64_t r = 0; r < t->nrows; r++)
        feas[r] = tt_obj_violation(t->obj, bound, &t->rows[r].metrics) == 0.0;
}

int tt_tune_check_feasible(tt_ctx *ctx, const tt_tune *t)
{
    tt_metrics *m = (tt_metrics *)malloc((size_t)(t->nrows > 0 ? t->nrows : 1) * sizeof *m);
    if (!m)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    int64_t k = 0;
    for (int64_t r = 0; r < t->nrows; r++)
        if (t->rows[r].phase == PHASE_SEARCH)
            m[k++] = t->rows[r].metrics;
    char why[512];
    tt_objective_why_infeasible(t->obj, m, k, why, sizeof why);
    free(m);
    return *why ? tt_err(ctx, TT_EEMPTY, "no feasible configuration: %s", why) : 0;
}

int64_t tt_tune_default_batch(int64_t budget)
{
    int64_t b = budget / 4;
    b = b < 16 ? 16 : b > 4096 ? 4096 : b;
    return b < budget ? b : budget;
}

/* ---- the choice beside its baselines ---- */

const char *const tt_tune_role_names[TT_NROLES] = {"recommended", "strict", "no_wait",
                                                   "grid_best", "hindsight"};

tt_params tt_tune_every_class_waits(const tt_params *base, int64_t w)
{
    tt_params p = *base;
    p.w0 = p.w1 = w;
    for (int k = 0; k < TT_MAX_CLASSES; k++)
        p.class_w0[k] = p.class_w1[k] = TT_TIMER_GLOBAL;
    return p;
}

int tt_tune_run_roles(tt_ctx *ctx, tt_tune *train, tt_tune *test, const tt_tune_opts *opts,
                      void *hindsight_progress_arg, tt_tune_eval_fn eval, void *train_arg,
                      void *test_arg, tt_tune_roles *out)
{
    int64_t *tr = out->train_row, *te = out->test_row;
    int64_t before = train->nrows, sims = train->nsims;
    memset(out, 0, sizeof *out);
    for (int r = 0; r < TT_NROLES; r++)
        tr[r] = te[r] = -1;
    out->nroles = test ? TT_NROLES : TT_ROLE_HINDSIGHT;
    tt_tune_opts o = *opts;
    o.phase = PHASE_SEARCH;
    int rc = tt_tune_search(ctx, train, &o, eval, train_arg, &tr[TT_ROLE_RECOMMENDED]);
    out->rows_search = train->nrows - before;
    out->sims_search = train->nsims - sims;
    out->gain = train->gain;
    out->room = train->room;
    out->exact = train->exact;
    out->forms = train->forms;
    out->forms_test = -1;
    o.strategy = TT_TUNE_GRID;
    o.phase = PHASE_GRID;
    o.progress = NULL;
    if (!rc)
        rc = tt_tune_search(ctx, train, &o, eval, train_arg, &tr[TT_ROLE_GRID_BEST]);
    out->rows_grid = train->nrows - before - out->rows_search;
    out->sims_grid = train->nsims - sims - out->sims_search;
    tt_params strict = tt_tune_every_class_waits(&train->base, TT_INF);
    tt_params nowait = tt_tune_every_class_waits(&train->base, 0);
    if (!rc)
        rc = tt_tune_eval(ctx, train, &strict, PHASE_SINGLE, eval, train_arg,
                          &tr[TT_ROLE_STRICT]);
    if (!rc)
        rc = tt_tune_eval(ctx, train, &nowait, PHASE_SINGLE, eval, train_arg,
                          &tr[TT_ROLE_NO_WAIT]);
    if (rc || !test)
        return rc;
    for (int r = 0; r < TT_ROLE_HINDSIGHT && !rc; r++)
        rc = tt_tune_eval(ctx, test, &train->rows[tr[r]].params, PHASE_SINGLE, eval, test_arg,
                          &te[r]);
    o = *opts;
    o.phase = PHASE_HINDSIGHT;
    o.progress_arg = hindsight_progress_arg;
    int64_t found; /* the best of the search alone; hindsight takes every test row */
    if (!rc)
        rc = tt_tune_search(ctx, test, &o, eval, test_arg, &found);
    out->exact_test = test->exact;
    out->forms_test = test->forms;
    if (!rc)
        rc = tt_tune_best_row(test, &te[TT_ROLE_HINDSIGHT], NULL);
    if (!rc)
        rc = tt_tune_eval(ctx, train, &test->rows[te[TT_ROLE_HINDSIGHT]].params, PHASE_SINGLE,
                          eval, train_arg, &tr[TT_ROLE_HINDSIGHT]);
    if (!rc)
        out->hindsight = test->rows[te[TT_ROLE_HINDSIGHT]].objective;
    return rc;
}

/* ---- time split ---- */

/* Values [a, a + n) of the column col of size-byte values into *out, or
 * *out NULL when col is (the trace lacks the column). 0 or TT_ENOMEM. */
static int slice_col(const void *col, size_t size, int64_t a, size_t n, void **out)
{
    *out = NULL;
    if (!col)
        return 0;
    if (!(*out = malloc(n * size)))
        return TT_ENOMEM;
    memcpy(*out, (const char *)col + (size_t)a * size, n * size);
    return 0;
}

/* The parents of jobs [a, a + n) as row indices of the part. A parent
 * before the part ended before it began (parents come first in a
 * workflow), so the part's task does not wait for it: it is left out. 0 or
 * TT_ENOMEM. */
static int slice_deps(const tt_sim_jobs *j, int64_t a, int64_t n, tt_sim_jobs *out)
{
    if (!j->dep_off)
        return 0;
    int64_t first = j->dep_off[a], total = j->dep_off[a + n] - first;
    out->dep_off = (int64_t *)malloc((size_t)(n + 1) * sizeof *out->dep_off);
    out->deps = (int32_t *)malloc((size_t)(total ? total : 1) * sizeof *out->deps);
    if (!out->dep_off || !out->deps)
        return TT_ENOMEM;
    int64_t k = 0;
    out->dep_off[0] = 0;
    for (int64_t i = 0; i < n; i++) {
        for (int64_t d = j->dep_off[a + i]; d < j->dep_off[a + i + 1]; d++)
            if (j->deps[d] >= a)
                out->deps[k++] = (int32_t)(j->deps[d] - a);
        out->dep_off[i + 1] = k;
    }
    return 0;
}

int tt_tune_slice(tt_ctx *ctx, const tt_sim_jobs *j, int64_t a, int64_t b, tt_sim_jobs *out)
{
    memset(out, 0, sizeof *out);
    if (a < 0 || b > j->n || a >= b)
        return tt_err(ctx, TT_EINVAL, "jobs [%lld, %lld): not a non-empty part of 0 .. %lld",
                      (long long)a, (long long)b, (long long)j->n);
    size_t n = (size_t)(b - a);
    out->submit = (int64_t *)malloc(n * sizeof *out->submit);
    out->duration = (int64_t *)malloc(n * sizeof *out->duration);
    out->gpus = (int32_t *)malloc(n * sizeof *out->gpus);
    out->cls = (int32_t *)malloc(n * sizeof *out->cls);
    /* the trace's elasticity and workflow columns go with their jobs */
    if (!out->submit || !out->duration || !out->gpus || !out->cls ||
        slice_col(j->elastic, sizeof *j->elastic, a, n, (void **)&out->elastic) ||
        slice_col(j->gpus_min, sizeof *j->gpus_min, a, n, (void **)&out->gpus_min) ||
        slice_col(j->gpus_max, sizeof *j->gpus_max, a, n, (void **)&out->gpus_max)) {
        tt_sim_jobs_free(out);
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    }
    if (slice_col(j->wf, sizeof *j->wf, a, n, (void **)&out->wf) ||
        slice_col(j->mid, sizeof *j->mid, a, n, (void **)&out->mid) ||
        slice_col(j->mem_mb, sizeof *j->mem_mb, a, n, (void **)&out->mem_mb) ||
        slice_col(j->out_mb, sizeof *j->out_mb, a, n, (void **)&out->out_mb) ||
        slice_deps(j, a, (int64_t)n, out)) {
        tt_sim_jobs_free(out);
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    }
    out->n = (int64_t)n;
    for (size_t i = 0; i < n; i++) {
        out->submit[i] = j->submit[a + (int64_t)i] - j->submit[a];
        out->duration[i] = j->duration[a + (int64_t)i];
        out->gpus[i] = j->gpus[a + (int64_t)i];
        out->cls[i] = j->cls[a + (int64_t)i];
        out->unknown_models += out->cls[i] < 0;
    }
    return 0;
}

int tt_tune_holdout(int64_t n, double f, int64_t *cut)
{
    if (!(f > 0 && f < 1))
        return TT_EINVAL;
    int64_t c = n - (int64_t)floor(f * (double)n + 0.5);
    if (c <= 0 || c >= n)
        return TT_EINVAL;
    *cut = c;
    return 0;
}

int tt_tune_split(tt_ctx *ctx, const tt_sim_jobs *j, double holdout, const int64_t range[4],
                  tt_sim_jobs *train, tt_sim_jobs *test, char *desc, size_t size)
{
    memset(train, 0, sizeof *train);
    memset(test, 0, sizeof *test);
    if (holdout == 0 && range[3] == 0) {
        snprintf(desc, size, "none: tuned on every job");
        return 0;
    }
    int64_t r[4] = {0, 0, 0, j->n};
    if (holdout != 0 && tt_tune_holdout(j->n, holdout, &r[1]))
        return tt_err(ctx, TT_ERANGE, "holdout %g: a part without jobs (%lld in all)", holdout,
                      (long long)j->n);
    if (holdout != 0)
        r[2] = r[1];
    else
        memcpy(r, range, sizeof r);
    if (r[1] > j->n || r[3] > j->n)
        return tt_err(ctx, TT_ERANGE, "jobs [%lld,%lld), [%lld,%lld): the trace has %lld jobs",
                      (long long)r[0], (long long)r[1], (long long)r[2], (long long)r[3],
                      (long long)j->n);
    snprintf(desc, size, "train jobs [%lld,%lld), test jobs [%lld,%lld)", (long long)r[0],
             (long long)r[1], (long long)r[2], (long long)r[3]);
    int rc = tt_tune_slice(ctx, j, r[0], r[1], train);
    if (!rc && (rc = tt_tune_slice(ctx, j, r[2], r[3], test)))
        tt_sim_jobs_free(train);
    return rc;
}
