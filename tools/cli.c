/* Shared tool glue. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tt/gpu.h"
#include "tt/infile.h"
#include "tt/parse.h"
#include "tt/run.h"
#include "tt/version.h"

static const char *prog = "tt";
static _Atomic(const cli_cleanup *) cleanup;
static tt_infile spool; /* standard input kept as a file (cli_input) */

void cli_init(const char *p)
{
    const char *slash = strrchr(p, '/');
    prog = slash ? slash + 1 : p;
}

const char *cli_prog(void) { return prog; }

static int quiet; /* -q: notes off (cli_note) */

/* "prog: message" on stderr, the copy of standard input named "<stdin>". */
static void vmsg(const char *fmt, va_list ap)
{
    char small[1024], *msg = small;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n >= (int)sizeof small && (msg = (char *)malloc((size_t)n + 1)))
        vsnprintf(msg, (size_t)n + 1, fmt, again);
    va_end(again);
    fprintf(stderr, "%s: ", prog);
    /* the reader named the copy of standard input; the user named "-" */
    const char *p = msg ? msg : small, *hit;
    size_t len = strlen(spool.spool);
    for (; len && (hit = strstr(p, spool.spool)); p = hit + len)
        fprintf(stderr, "%.*s<stdin>", (int)(hit - p), p);
    fprintf(stderr, "%s\n", p);
    if (msg && msg != small)
        free(msg);
}

void cli_err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(fmt, ap);
    va_end(ap);
}

void cli_set_quiet(int q) { quiet = q; }

void cli_note(const char *fmt, ...)
{
    if (quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vmsg(fmt, ap);
    va_end(ap);
}

void cli_note_unknown_models(const tt_sim_jobs *j)
{
    if (j->unknown_models)
        cli_note("%lld job%s no model class of the table: drawn from the mix (-q: no notes)",
                 (long long)j->unknown_models, j->unknown_models == 1 ? " names" : "s name");
}

int cli_usage_error(const char *usage)
{
    fprintf(stderr, "%s", usage);
    fprintf(stderr, "Try '%s -h' for more.\n", prog);
    return EXIT_USAGE;
}

int cli_close_stdout(int status)
{
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad && e != EPIPE) {
        cli_err("write error on standard output: %s", strerror(e));
        return EXIT_FAIL;
    }
    return bad ? EXIT_FAIL : status;
}

int cli_finish(const tt_ctx *ctx, int status, void (*release)(void *), void *state)
{
    if (status != EXIT_OK && ctx && *tt_errmsg(ctx))
        cli_err("%s", tt_errmsg(ctx));
    release(state);
    return cli_close_stdout(status);
}

static void on_signal(int sig)
{
    /* kill, unlink and rmdir are async-signal-safe; so is the load, lock-free */
    tt_infile_close(&spool);
    const cli_cleanup *c = atomic_load(&cleanup);
    if (c && c->child && *c->child > 0)
        kill(*c->child, SIGTERM);
    for (size_t i = 0; c && i < sizeof c->files / sizeof c->files[0]; i++)
        if (c->files[i] && c->files[i][0])
            unlink(c->files[i]);
    if (c && c->dir && c->dir[0])
        rmdir(c->dir);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigaction(sigs[i], &sa, NULL);
    }
}

void cli_cleanup_set(const cli_cleanup *c)
{
    atomic_store(&cleanup, c);
    if (c)
        catch_signals();
}

void cli_cleanup_on_signal(const char *path)
{
    static char copy[4096];
    static const cli_cleanup one = {{copy}, NULL, NULL};
    cli_cleanup_set(NULL); /* no handler reads the copy while it changes */
    if (path) {
        snprintf(copy, sizeof copy, "%s", path);
        cli_cleanup_set(&one);
    }
}

char *cli_read_stdin(size_t *len)
{
    size_t cap = 1 << 16;
    char *buf = (char *)malloc(cap);
    *len = 0;
    while (buf) {
        size_t got = fread(buf + *len, 1, cap - *len, stdin);
        *len += got;
        if (got == 0)
            break;
        if (*len == cap) {
            char *nb = (char *)realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    if (buf && ferror(stdin)) {
        free(buf);
        return NULL;
    }
    return buf;
}

int cli_stdin_once(const char *const *args, int n)
{
    int seen = 0;
    for (int i = 0; i < n; i++)
        if (args[i] && strcmp(args[i], "-") == 0 && seen++) {
            cli_err("standard input ('-') named twice");
            return -1;
        }
    return 0;
}

static void remove_spool(void) { tt_infile_close(&spool); }

const char *cli_input(const char *arg)
{
    if (strcmp(arg, "-") != 0)
        return arg;
    if (spool.path[0] || spool.spool[0]) {
        cli_err("standard input ('-') named twice");
        return NULL;
    }
    tt_ctx *ctx = tt_ctx_create();
    int rc = ctx ? tt_infile_init(ctx, &spool, arg) : TT_ENOMEM;
    if (!rc) {
        /* removal on a signal and at exit is in place before the copy exists */
        catch_signals();
        atexit(remove_spool);
        rc = tt_infile_open(ctx, &spool);
    }
    if (rc)
        cli_err("%s", ctx ? tt_errmsg(ctx) : "out of memory");
    tt_ctx_free(ctx);
    return rc ? NULL : spool.path;
}

int cli_output_h5(const char *out)
{
    if (!out || strcmp(out, "-") != 0 || !isatty(STDOUT_FILENO))
        return 0;
    cli_err("-o -: standard output is a terminal: an HDF5 file is binary; redirect it "
            "(>FILE.h5) or pipe it to a tool that reads '-'");
    return -1;
}

static atomic_int *stop_flag;
static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
    if (stop_sig) /* a second signal kills at once, cleaning up as any other */
        on_signal(sig);
    stop_sig = sig;
    if (stop_flag)
        atomic_store(stop_flag, 1); /* lock-free, so async-signal-safe */
}

void cli_stop_on_signal(atomic_int *flag)
{
    stop_flag = flag;
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        /* on_signal with nothing to clean up dies as the default would */
        sa.sa_handler = flag ? on_stop : on_signal;
        sigaction(sigs[i], &sa, NULL);
    }
}

int cli_stop_requested(void *flag) { return atomic_load((atomic_int *)flag); }

int cli_stopped(tt_ctx *ctx)
{
    cli_err("stopped by signal %d before the end: nothing written", (int)stop_sig);
    /* the library's own "stopped" would be a second line saying the same */
    tt_err_clear(ctx);
    return 128 + (int)stop_sig;
}

const char *cli_split_arg(const char *opt, const char *what, const char *arg, char *name,
                          size_t size)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || (size_t)(eq - arg) >= size) {
        cli_err("option %s: expected NAME=%s, got '%s'", opt, what, arg);
        return NULL;
    }
    snprintf(name, size, "%.*s", (int)(eq - arg), arg);
    return eq + 1;
}

int cli_version(void)
{
    char gpu[512];
    tt_gpu_describe(gpu, sizeof gpu);
    printf("%s (tracetune %s)\nCUDA: %s\nGPU: %s\n", prog, TT_VERSION,
           tt_gpu_built() ? "built in" : "not built in", gpu);
    return cli_close_stdout(EXIT_OK);
}

int cli_i64(const char *opt, const char *s, int64_t min, int64_t *out)
{
    int rc = tt_parse_i64(s, out);
    if (rc || *out < min) {
        cli_err("option %s: %s '%s'", opt,
                rc == TT_ERANGE ? "number out of range" : rc ? "not an integer" : "too small", s);
        return -1;
    }
    return 0;
}

void cli_note_rejected(const tt_metrics *m, int64_t n)
{
    int64_t lo = INT64_MAX, hi = 0;
    for (int64_t r = 0; r < n; r++) {
        lo = m[r].rejected < lo ? m[r].rejected : lo;
        hi = m[r].rejected > hi ? m[r].rejected : hi;
    }
    if (hi == 0)
        return;
    const char *why = "more GPUs than the cluster, a model larger than gpu_mem, or a task of a "
                      "workflow rejected whole";
    if (lo == hi)
        cli_note("%lld job%s rejected, not simulated (%s)", (long long)hi, hi == 1 ? "" : "s",
                 why);
    else
        cli_note("%lld to %lld jobs rejected, by configuration, not simulated (%s)", (long long)lo,
                 (long long)hi, why);
}

void cli_warn_empty_metrics(const tt_metrics *m, int64_t n)
{
    char names[512] = "";
    int64_t rows = 0;
    for (int i = 0; i < TT_NMETRICS; i++) {
        int empty = 0;
        for (int64_t r = 0; r < n; r++)
            empty |= !tt_metric_defined(&m[r], i);
        if (empty)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     *names ? ", " : "", tt_metric_names[i]);
    }
    const char *why = NULL;
    for (int64_t r = 0; r < n; r++) {
        const char *w = tt_metrics_why_undefined(&m[r]);
        why = why ? why : w;
        rows += w != NULL;
    }
    if (!rows)
        return;
    if (n == 1)
        cli_note("%s cannot be computed (%s): left empty", names, why);
    else
        cli_note("%s cannot be computed in %lld of %lld configurations (%s): left empty", names,
                 (long long)rows, (long long)n, why);
}

int cli_threads_arg(const char *s, int64_t *out)
{
    if (cli_i64("-j", s, 1, out))
        return -1;
    if (*out > TT_RUN_MAX_THREADS) {
        cli_err("option -j: at most %d threads, got '%s'", TT_RUN_MAX_THREADS, s);
        return -1;
    }
    return 0;
}

int cli_threads(int64_t asked, int64_t count)
{
    if (asked <= 0)
        return 0;
    int64_t cpus = tt_run_cpus(), t = asked;
    if (t > 4 * cpus) {
        t = 4 * cpus;
        cli_err("-j %lld: %lld threads (4 x the %lld usable CPUs)", (long long)asked,
                (long long)t, (long long)cpus);
    }
    if (count > 0 && t > count) {
        cli_err("-j %lld: %lld thread%s, one per configuration", (long long)asked,
                (long long)count, count == 1 ? "" : "s");
        t = count;
    }
    return (int)t;
}

void cli_count(int64_t n, char *buf, size_t size)
{
    char d[32];
    int len = snprintf(d, sizeof d, "%lld", (long long)(n < 0 ? -n : n)), k = 0;
    char out[48];
    if (n < 0)
        out[k++] = '-';
    for (int i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            out[k++] = ',';
        out[k++] = d[i];
    }
    out[k] = '\0';
    snprintf(buf, size, "%s", out);
}

double cli_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "3 h 20 min", "4 min 10 s" into buf. */
static void span(double s, char *buf, size_t size)
{
    long long t = s > 0 && s < 1e12 ? (long long)(s + 0.5) : 0;
    if (t >= 86400)
        snprintf(buf, size, "%lld d %lld h", t / 86400, t % 86400 / 3600);
    else if (t >= 3600)
        snprintf(buf, size, "%lld h %lld min", t / 3600, t % 3600 / 60);
    else
        snprintf(buf, size, "%lld min %lld s", t / 60, t % 60);
}

/* On a terminal, one line redrawn five times a second; elsewhere (a log
 * file, a batch job) a line of its own at most every ps->every seconds. */
void cli_progress_update(void *arg, int64_t done, int64_t count)
{
    cli_progress *ps = (cli_progress *)arg;
    double t = cli_now_s(), rate = t > ps->start ? (double)done / (t - ps->start) : 0.0;
    if (ps->every >= 0) {
        if (t - ps->last < ps->every || done >= count)
            return;
        ps->last = t;
        char left[64], end[64] = "?";
        span(rate > 0 ? (double)(count - done) / rate : 0, left, sizeof left);
        time_t at = time(NULL) + (time_t)(rate > 0 ? (double)(count - done) / rate : 0);
        struct tm tm;
        if (rate > 0 && localtime_r(&at, &tm))
            strftime(end, sizeof end, "%Y-%m-%d %H:%M", &tm);
        cli_err("%lld/%lld %s, %.1f sims/s, %s left (ends about %s)",
                (long long)done, (long long)count, ps->what, rate, rate > 0 ? left : "?", end);
        return;
    }
    if (done < count && t - ps->last < 0.2)
        return;
    ps->last = t;
    fprintf(stderr, "\r  %lld/%lld %s, %.1f sims/s", (long long)done,
            (long long)count, ps->what, rate);
    if (done == count)
        fputc('\n', stderr);
}

/* Seconds between progress lines when stderr is not a terminal: 60, or
 * TT_PROGRESS_S (for tests, which cannot wait a minute). */
static double progress_every(void)
{
    const char *e = getenv("TT_PROGRESS_S");
    char *end;
    double v = e && *e ? strtod(e, &end) : 60.0;
    return e && *e && (*end || v < 0) ? 60.0 : v;
}

void cli_progress_init(cli_progress *p, const char *what)
{
    int tty = isatty(STDERR_FILENO);
    p->start = cli_now_s();
    p->last = tty ? 0 : p->start;
    p->every = tty ? -1.0 : progress_every();
    p->what = what;
}

int cli_note_jobs(tt_ctx *ctx, tt_trace *t, const tt_sim_jobs *j)
{
    char hex[65];
    tt_sim_jobs_sha256(j, hex);
    return tt_prov_set(&t->prov.jobs_sha256, hex) ? tt_err(ctx, TT_ENOMEM, "out of memory") : 0;
}

/* ---- parameters given the way people write them ---- */

int cli_param_as_option(int argc, char **argv, const struct option *lopts)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0)
            break;
        if (strncmp(a, "--", 2) != 0)
            continue;
        char name[64];
        size_t len = strcspn(a + 2, "=");
        if (len == 0 || len >= sizeof name)
            continue;
        memcpy(name, a + 2, len);
        name[len] = '\0';
        int own = 0; /* an option of the tool's own (tt-tune's --seed) */
        for (int j = 0; lopts && lopts[j].name && !own; j++)
            own = strcmp(name, lopts[j].name) == 0;
        if (own)
            continue;
        int known = strcmp(name, "preset") == 0;
        for (int j = 0; j < TT_NPARAMS && !known; j++)
            known = strcmp(name, tt_param_names[j]) == 0;
        if (!known)
            continue;
        const char *val = a[2 + len] == '=' ? a + 3 + len : i + 1 < argc ? argv[i + 1] : "VALUE";
        cli_err("--%s is not an option: parameters are set with -p, as in -p %s=%s", name, name,
                val);
        return 1;
    }
    return 0;
}

/* A value that parses but is implausible for its unit: a load is in
 * permille of the trace's own, so load=2 is 0.2 % of it (a century of
 * makespan on Philly) where twice the load was meant. */
static void warn_one(const tt_models *m, const char *name, const char *value)
{
    tt_params p;
    tt_params_default(&p);
    if (strcmp(name, "load") != 0 || tt_params_set(NULL, &p, m, name, value) || p.load >= 50)
        return;
    cli_err("warning: load=%s is in permille of the trace's load: %.1f %% of it (twice the load "
            "is load=2000 or load=2x)",
            value, (double)p.load / 10);
}

void cli_warn_value(const tt_models *m, const char *name, const char *value)
{
    if (strchr(value, ':')) /* a range: its ends are numbers of the unit already */
        return;
    char item[64];
    for (const char *s = value; *s;) {
        size_t len = strcspn(s, ",;");
        if (len < sizeof item) {
            memcpy(item, s, len);
            item[len] = '\0';
            warn_one(m, name, item);
        }
        s += len + (s[len] ? 1 : 0);
    }
}
