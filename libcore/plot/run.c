/* Running gnuplot on a script tt/plot.h wrote (tt-plot's figures): found
 * on PATH or by $GNUPLOT, run from a private folder, its messages kept in
 * a file there and handed back as text, the figure read from its standard
 * output and written whole beside its name, then renamed into place. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tt/outfile.h"
#include "tt/plot.h"

extern char **environ;

int tt_plot_find_gnuplot(char *buf, size_t size)
{
    const char *g = getenv("GNUPLOT");
    if (!g || !*g)
        g = "gnuplot";
    if (strchr(g, '/')) {
        snprintf(buf, size, "%s", g);
        return access(buf, X_OK);
    }
    const char *path = getenv("PATH");
    for (const char *p = path ? path : ""; *p;) {
        const char *colon = strchr(p, ':');
        int n = colon ? (int)(colon - p) : (int)strlen(p);
        snprintf(buf, size, "%.*s/%s", n, n ? p : ".", g);
        if (access(buf, X_OK) == 0)
            return 0;
        p += n + (colon ? 1 : 0);
    }
    return -1;
}

int tt_plot_run(tt_ctx *ctx, const char *gnuplot, const char *script, const char *log,
                volatile pid_t *pid, int *status)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    char *argv[] = {(char *)gnuplot, (char *)script, NULL};
    pid_t child;
    int rc = posix_spawn(&child, gnuplot, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return tt_err(ctx, TT_EIO, "cannot run '%s': %s", gnuplot, strerror(rc));
    *pid = child;
    while (waitpid(child, status, 0) < 0)
        if (errno != EINTR) {
            *pid = 0;
            return tt_err(ctx, TT_EIO, "cannot wait for '%s': %s", gnuplot, strerror(errno));
        }
    *pid = 0;
    return 0;
}

/* ---- drawing a figure ---- */

/* Runs gnuplot on script as tt_plot_run does, but with its standard
 * output a pipe read to its end into *fig (*len bytes, malloc'ed, the
 * caller's; NULL when empty): the figure, which the script writes there
 * (tt_plot_opts.output NULL). gnuplot checks none of its writes, so a
 * figure it writes to a file on a full disk is cut short and it still
 * exits 0; the bytes read here are written and checked by the caller. */
static int run_to_pipe(tt_ctx *ctx, tt_plot_render *r, int *status, char **fig, size_t *len)
{
    *fig = NULL;
    *len = 0;
    int p[2];
    if (pipe(p) != 0)
        return tt_err(ctx, TT_EIO, "cannot run '%s': %s", r->gnuplot, strerror(errno));
    fcntl(p[0], F_SETFD, FD_CLOEXEC); /* the write end is gnuplot's alone */
    fcntl(p[1], F_SETFD, FD_CLOEXEC);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, p[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, r->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char *argv[] = {r->gnuplot, r->script, NULL};
    pid_t child;
    int rc = posix_spawn(&child, r->gnuplot, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(p[1]);
    if (rc != 0) {
        close(p[0]);
        return tt_err(ctx, TT_EIO, "cannot run '%s': %s", r->gnuplot, strerror(rc));
    }
    r->pid = child;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int e = 0;
    for (;;) {
        if (cap - n < 65536) {
            char *nb = (char *)realloc(buf, cap = cap ? 2 * cap : 1 << 20);
            if (!nb) {
                e = ENOMEM;
                break;
            }
            buf = nb;
        }
        ssize_t got = read(p[0], buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            e = got < 0 ? errno : 0;
            break;
        }
        n += (size_t)got;
    }
    close(p[0]); /* a gnuplot still writing gets SIGPIPE */
    while (waitpid(child, status, 0) < 0)
        if (errno != EINTR) {
            r->pid = 0;
            free(buf);
            return tt_err(ctx, TT_EIO, "cannot wait for '%s': %s", r->gnuplot, strerror(errno));
        }
    r->pid = 0;
    if (e) {
        free(buf);
        return tt_err(ctx, TT_EIO, "cannot read what '%s' drew: %s", r->gnuplot, strerror(e));
    }
    if (n == 0) {
        free(buf);
        buf = NULL;
    }
    *fig = buf;
    *len = n;
    return 0;
}

/* len bytes to path; 0, or -1 with errno. */
static int write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int bad = fwrite(data, 1, len, f) != len;
    int e = errno;
    if (fclose(f) != 0)
        return -1;
    errno = e;
    return bad ? -1 : 0;
}

int tt_plot_render_open(tt_ctx *ctx, tt_plot_render *r)
{
    memset(r, 0, sizeof *r);
    if (tt_plot_find_gnuplot(r->gnuplot, sizeof r->gnuplot)) {
        r->gnuplot[0] = '\0';
        return tt_err(ctx, TT_EIO, "gnuplot not found (install gnuplot, e.g. apt-get install "
                                   "gnuplot-nox, or set GNUPLOT to its path)");
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(r->dir, sizeof r->dir, "%s/tt-plot.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(r->dir)) {
        int rc = tt_err(ctx, TT_EIO, "cannot create a temporary folder '%s': %s", r->dir,
                        strerror(errno));
        memset(r, 0, sizeof *r);
        return rc;
    }
    snprintf(r->script, sizeof r->script, "%s/plot.gp", r->dir);
    snprintf(r->log, sizeof r->log, "%s/gnuplot.err", r->dir);
    return 0;
}

int tt_plot_render_target(tt_ctx *ctx, tt_plot_render *r, const char *output)
{
    return tt_outfile_open(ctx, &r->fig, output);
}

/* The whole of file path, NUL-terminated; NULL when it is empty or cannot
 * be read. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, got = 1;
    while (got > 0) {
        if (cap - len < 4096) {
            char *nb = (char *)realloc(buf, cap = cap ? cap * 2 : 8192);
            if (!nb) {
                len = 0;
                break;
            }
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
    }
    if (ferror(f))
        len = 0;
    fclose(f);
    if (len == 0) {
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

/* gnuplot's messages for the reader of tt-plot, in place: the private
 * script's name goes ("\"/tmp/tt-plot.X/plot.gp\" line 4: x" becomes
 * "line 4: x"), and so do its echo of the offending line and the caret
 * under it; when the figure was drawn, so do the notes on ranges it
 * widened itself and on data blocks with nothing to draw, which say
 * nothing about the figure. NULL when nothing is left. */
static char *clean_messages(char *m, const char *script, int drawn)
{
    if (!m)
        return NULL;
    char prefix[4200];
    snprintf(prefix, sizeof prefix, "\"%s\" ", script);
    size_t np = strlen(prefix), k = 0;
    char *line = m, *prev = NULL; /* where the line before, if kept, starts in m */
    while (*line) {
        char *end = strchr(line, '\n'), *next = end ? end + 1 : line + strlen(line);
        size_t n = (size_t)(next - line);
        const char *t = line + strspn(line, " \t");
        char after = t[1 + strspn(t + 1, " \t")];
        int caret = *t == '^' && (after == '\n' || after == '\0');
        if (strncmp(line, prefix, np) == 0) {
            line += np;
            n -= np;
        }
        if (end)
            *end = '\0'; /* the searches stay on this line */
        int benign = strstr(line, "Warning: empty ") && strstr(line, " range [");
        benign |= strstr(line, "warning: Skipping data file with no valid points") != NULL;
        if (end)
            *end = '\n';
        if (caret && prev) /* the echo above it goes too */
            k = (size_t)(prev - m);
        prev = NULL;
        if (!caret && !(drawn && benign)) {
            prev = m + k;
            memmove(m + k, line, n);
            k += n;
        }
        line = next;
    }
    m[k] = '\0';
    if (k == 0) {
        free(m);
        return NULL;
    }
    return m;
}

int tt_plot_render_run(tt_ctx *ctx, tt_plot_render *r, const char *script, const char *output,
                       char **messages)
{
    *messages = NULL;
    if (write_bytes(r->script, script, strlen(script)))
        return tt_err(ctx, TT_EIO, "cannot write '%s': %s", r->script, strerror(errno));
    int ws;
    char *fig;
    size_t len;
    int rc = run_to_pipe(ctx, r, &ws, &fig, &len);
    if (rc)
        return rc;
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0 || len == 0) {
        free(fig);
        *messages = clean_messages(read_text(r->log), r->script, 0);
        return tt_err(ctx, TT_EIO, "gnuplot failed (%s %d) drawing '%s':",
                      WIFEXITED(ws) ? "exit status" : "signal",
                      WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws), output);
    }
    /* beside the output, each write checked, then renamed over it */
    rc = tt_outfile_write(ctx, &r->fig, fig, len);
    free(fig);
    r->fig.tmp[0] = '\0'; /* renamed, or removed */
    if (rc)
        return rc;
    *messages = clean_messages(read_text(r->log), r->script, 1);
    return 0;
}

void tt_plot_render_close(tt_plot_render *r)
{
    char *files[] = {r->fig.tmp, r->script, r->log};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        if (files[i][0])
            unlink(files[i]);
        files[i][0] = '\0';
    }
    if (r->dir[0])
        rmdir(r->dir);
    r->dir[0] = '\0';
}

int tt_plot_save_script(tt_ctx *ctx, const char *script, const char *path)
{
    tt_outfile o;
    int rc = tt_outfile_open(ctx, &o, path);
    return rc ? rc : tt_outfile_write(ctx, &o, script, strlen(script));
}
