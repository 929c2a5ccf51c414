/* Drawing a figure (libcore/plot/run.c): the private folder, gnuplot (a
 * fake one that runs its script with sh, the figure on its standard
 * output), its messages, the figure written beside its output and renamed
 * into place, and a script kept whole. */
#include <sys/stat.h>

#include "testutil.h"
#include "tt/plot.h"

typedef struct {
    char base[64];   /* the test's folder: the fake, outputs */
    char tmp[128];   /* $TMPDIR */
    char fake[128];  /* $GNUPLOT */
    char out[128];   /* base/out.png */
    char fig[160];   /* base/.out.png.tmp-PID, the figure while written */
} drawcase;

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

/* The file's text ("" kept as ""), or NULL when it does not exist. */
static char *file_text(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *s = (char *)calloc(1, 4096);
    cr_assert_not_null(s);
    if (fread(s, 1, 4095, f) == 0 && ferror(f))
        cr_assert_fail("cannot read %s", path);
    fclose(f);
    return s;
}

static int dir_is_empty(const char *path)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", path);
    return system(cmd) == 0;
}

static void draw_setup(drawcase *c)
{
    snprintf(c->base, sizeof c->base, "/tmp/tt-test-draw-XXXXXX");
    cr_assert_not_null(mkdtemp(c->base));
    snprintf(c->tmp, sizeof c->tmp, "%s/tmp", c->base);
    cr_assert_eq(mkdir(c->tmp, 0700), 0);
    snprintf(c->fake, sizeof c->fake, "%s/gnuplot", c->base);
    write_text(c->fake, "#!/bin/sh\nexec sh \"$1\"\n");
    cr_assert_eq(chmod(c->fake, 0700), 0);
    snprintf(c->out, sizeof c->out, "%s/out.png", c->base);
    snprintf(c->fig, sizeof c->fig, "%s/.out.png.tmp-%d", c->base, (int)getpid());
    setenv("TMPDIR", c->tmp, 1);
    setenv("GNUPLOT", c->fake, 1);
}

static void draw_teardown(drawcase *c)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", c->base);
    cr_expect_eq(system(cmd), 0);
}

Test(run, render_open_and_close)
{
    drawcase c;
    draw_setup(&c);
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_render r;
    cr_assert_eq(tt_plot_render_open(ctx, &r), 0, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(r.gnuplot, c.fake);
    char want[4200];
    snprintf(want, sizeof want, "%s/tt-plot.", c.tmp);
    cr_expect_eq(strncmp(r.dir, want, strlen(want)), 0, "dir %s", r.dir);
    cr_expect_eq(strlen(r.dir), strlen(want) + 6, "dir %s", r.dir);
    struct stat st;
    cr_assert_eq(stat(r.dir, &st), 0);
    cr_expect(S_ISDIR(st.st_mode));
    cr_expect_eq(st.st_mode & 0777, 0700);
    snprintf(want, sizeof want, "%s/plot.gp", r.dir);
    cr_expect_str_eq(r.script, want);
    snprintf(want, sizeof want, "%s/gnuplot.err", r.dir);
    cr_expect_str_eq(r.log, want);
    cr_expect_str_eq(r.fig.tmp, "");
    cr_expect_eq(r.pid, 0);
    /* the figure as drawn, beside its output */
    cr_assert_eq(tt_plot_render_target(ctx, &r, c.out), 0);
    cr_expect_str_eq(r.fig.tmp, c.fig);
    tt_plot_render_close(&r);
    cr_expect(dir_is_empty(c.tmp), "the folder is left");
    cr_expect_str_eq(r.dir, "");
    cr_expect_str_eq(r.fig.tmp, "");
    tt_ctx_free(ctx);
    draw_teardown(&c);
}

Test(run, render_open_errors)
{
    drawcase c;
    draw_setup(&c);
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_render r;
    setenv("GNUPLOT", "/nonexistent/gnuplot", 1);
    cr_expect_eq(tt_plot_render_open(ctx, &r), TT_EIO);
    cr_expect_str_eq(tt_errmsg(ctx), "gnuplot not found (install gnuplot, e.g. apt-get install "
                                     "gnuplot-nox, or set GNUPLOT to its path)");
    cr_expect_str_eq(r.gnuplot, "");
    cr_expect_str_eq(r.dir, "");
    cr_expect(dir_is_empty(c.tmp));
    /* a $TMPDIR that does not exist: the template named, every name "" */
    setenv("GNUPLOT", c.fake, 1);
    char nope[256], want[4200];
    snprintf(nope, sizeof nope, "%s/nope", c.base);
    setenv("TMPDIR", nope, 1);
    cr_expect_eq(tt_plot_render_open(ctx, &r), TT_EIO);
    snprintf(want, sizeof want, "cannot create a temporary folder '%s/tt-plot.", nope);
    cr_expect_eq(strncmp(tt_errmsg(ctx), want, strlen(want)), 0, "%s", tt_errmsg(ctx));
    const char *tail = "': No such file or directory";
    cr_expect_str_eq(tt_errmsg(ctx) + strlen(want) + 6, tail);
    cr_expect_str_eq(r.dir, "");
    cr_expect_str_eq(r.script, "");
    /* $TMPDIR empty: /tmp */
    setenv("TMPDIR", "", 1);
    cr_assert_eq(tt_plot_render_open(ctx, &r), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(strncmp(r.dir, "/tmp/tt-plot.", 13), 0, "%s", r.dir);
    /* the folder gone: the script cannot be written */
    cr_assert_eq(rmdir(r.dir), 0);
    char *msgs = (char *)"unset";
    cr_assert_eq(tt_plot_render_target(ctx, &r, c.out), 0);
    cr_expect_eq(tt_plot_render_run(ctx, &r, "exit 0\n", c.out, &msgs), TT_EIO);
    snprintf(want, sizeof want, "cannot write '%s/plot.gp': No such file or directory", r.dir);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    cr_expect_null(msgs);
    tt_plot_render_close(&r);
    /* an output name with no room for the temporary one */
    static char longname[5000];
    memset(longname, 'a', sizeof longname - 1);
    setenv("TMPDIR", c.tmp, 1);
    cr_assert_eq(tt_plot_render_open(ctx, &r), 0);
    cr_expect_eq(tt_plot_render_target(ctx, &r, longname), TT_EINVAL);
    cr_expect_eq(strncmp(tt_errmsg(ctx), "output name too long: 'aaa", 26), 0);
    cr_expect_str_eq(r.fig.tmp, "");
    tt_plot_render_close(&r);
    cr_expect(dir_is_empty(c.tmp));
    tt_ctx_free(ctx);
    draw_teardown(&c);
}

/* Runs script (sh) through the fake gnuplot to c->out; the code, with
 * gnuplot's messages in *msgs and what is left checked by the caller. */
static int render(tt_ctx *ctx, drawcase *c, tt_plot_render *r, const char *script, char **msgs)
{
    cr_assert_eq(tt_plot_render_open(ctx, r), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(tt_plot_render_target(ctx, r, c->out), 0);
    return tt_plot_render_run(ctx, r, script, c->out, msgs);
}

Test(run, render_draws)
{
    drawcase c;
    draw_setup(&c);
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_render r;
    char *msgs = NULL;
    /* the figure written and a warning: the figure renamed into place */
    cr_assert_eq(render(ctx, &c, &r, "printf PNG\necho 'warning: a' >&2\n", &msgs), 0,
                 "%s", tt_errmsg(ctx));
    char *fig = file_text(c.out);
    cr_expect_str_eq(fig, "PNG");
    free(fig);
    cr_expect_str_eq(msgs, "warning: a\n");
    free(msgs);
    cr_expect_str_eq(r.fig.tmp, "");
    cr_expect_eq(r.pid, 0);
    cr_expect_eq(access(c.fig, F_OK), -1, "the figure as drawn is left");
    tt_plot_render_close(&r);
    cr_expect(dir_is_empty(c.tmp), "the folder is left");
    /* nothing to say: no messages */
    cr_assert_eq(render(ctx, &c, &r, "echo new\n", &msgs), 0, "%s", tt_errmsg(ctx));
    cr_expect_null(msgs);
    fig = file_text(c.out);
    cr_expect_str_eq(fig, "new\n");
    free(fig);
    tt_plot_render_close(&r);
    cr_expect(dir_is_empty(c.tmp));
    tt_ctx_free(ctx);
    draw_teardown(&c);
}

/* The figure is what gnuplot wrote, byte for byte, however long (the pipe
 * is read in pieces), and replaces an old one whole; nothing is beside it
 * after. */
Test(run, render_reads_the_figure_whole)
{
    drawcase c;
    draw_setup(&c);
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_render r;
    char *msgs = NULL;
    write_text(c.out, "old figure");
    /* 3,000,000 bytes, NULs among them */
    cr_assert_eq(render(ctx, &c, &r, "head -c 3000000 /dev/zero | tr '\\0' x | head -c 2999999\n"
                                     "printf '\\0'\n", &msgs), 0, "%s", tt_errmsg(ctx));
    cr_expect_null(msgs);
    struct stat st;
    cr_assert_eq(stat(c.out, &st), 0);
    cr_expect_eq(st.st_size, 3000000);
    FILE *f = fopen(c.out, "rb");
    cr_assert_not_null(f);
    int x = 0, other = 0, ch;
    while ((ch = fgetc(f)) != EOF)
        x += ch == 'x', other += ch != 'x';
    fclose(f);
    cr_expect(x == 2999999 && other == 1, "%d x, %d other", x, other);
    cr_expect_eq(access(c.fig, F_OK), -1, "the figure as written is left");
    tt_plot_render_close(&r);
    cr_expect(dir_is_empty(c.tmp));
    tt_ctx_free(ctx);
    draw_teardown(&c);
}

Test(run, render_failures)
{
    drawcase c;
    draw_setup(&c);
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_render r;
    char *msgs = NULL, want[4200];
    struct {
        const char *script, *why, *msgs;
    } cases[] = {
        /* exit 0 but nothing drawn */
        {"echo 'nothing' >&2\n", "exit status 0", "nothing\n"},
        {":\n", "exit status 0", NULL}, /* an empty figure */
        {"echo half\necho 'line 3: broken' >&2\nexit 3\n", "exit status 3", "line 3: broken\n"},
        {"echo half\nkill -TERM $$\n", "signal 15", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_expect_eq(render(ctx, &c, &r, cases[i].script, &msgs), TT_EIO, "case %zu", i);
        snprintf(want, sizeof want, "gnuplot failed (%s) drawing '%s':", cases[i].why, c.out);
        cr_expect_str_eq(tt_errmsg(ctx), want);
        if (cases[i].msgs) {
            cr_expect_str_eq(msgs, cases[i].msgs, "case %zu", i);
        } else {
            cr_expect_null(msgs, "case %zu: %s", i, msgs);
        }
        free(msgs);
        cr_expect_eq(access(c.out, F_OK), -1, "case %zu: a figure", i);
        tt_plot_render_close(&r);
        cr_expect_eq(access(c.fig, F_OK), -1, "case %zu: the figure as drawn is left", i);
        cr_expect(dir_is_empty(c.tmp), "case %zu: the folder is left", i);
    }
    /* gnuplot not executable: not run, no messages */
    cr_assert_eq(tt_plot_render_open(ctx, &r), 0);
    cr_assert_eq(chmod(c.fake, 0600), 0);
    cr_expect_eq(tt_plot_render_run(ctx, &r, "exit 0\n", c.out, &msgs), TT_EIO);
    snprintf(want, sizeof want, "cannot run '%s': Permission denied", c.fake);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    cr_expect_null(msgs);
    tt_plot_render_close(&r);
    cr_assert_eq(chmod(c.fake, 0700), 0);
    /* the output is a folder: refused before gnuplot runs */
    cr_assert_eq(mkdir(c.out, 0700), 0);
    cr_assert_eq(tt_plot_render_open(ctx, &r), 0);
    cr_expect_eq(tt_plot_render_target(ctx, &r, c.out), TT_EIO);
    snprintf(want, sizeof want,
             "cannot write '%s': a folder, not a regular file: refusing to replace it", c.out);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    cr_expect_str_eq(r.fig.tmp, "");
    tt_plot_render_close(&r);
    cr_expect_eq(access(c.fig, F_OK), -1);
    cr_expect(dir_is_empty(c.tmp));
    tt_ctx_free(ctx);
    draw_teardown(&c);
}

/* gnuplot's words for the reader: the private script's name is dropped,
 * with the echo of the line and the caret under it; when the figure was
 * drawn, its notes on ranges it widened and on empty data blocks go too
 * (they said nothing about a figure that came out), other warnings stay. */
Test(run, messages_for_the_reader)
{
    drawcase c;
    draw_setup(&c);
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_render r;
    char *msgs = NULL;
    const char *talk = "echo \"set output 'x'\" >&2\necho '          ^' >&2\n"
                       "echo \"\\\"$0\\\" line 4: cannot open file\" >&2\n"
                       "echo \"\\\"$0\\\" line 9: warning: Skipping data file with no valid "
                       "points\" >&2\n"
                       "echo 'Warning: empty x range [0:0], adjusting to [-1:1]' >&2\n"
                       "echo 'warning: something else' >&2\n";
    char script[2048];
    snprintf(script, sizeof script, "%sprintf PNG\n", talk);
    cr_assert_eq(render(ctx, &c, &r, script, &msgs), 0, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(msgs, "line 4: cannot open file\nwarning: something else\n");
    free(msgs);
    tt_plot_render_close(&r);
    snprintf(script, sizeof script, "%sexit 1\n", talk);
    cr_expect_eq(render(ctx, &c, &r, script, &msgs), TT_EIO);
    cr_expect_str_eq(msgs, "line 4: cannot open file\n"
                           "line 9: warning: Skipping data file with no valid points\n"
                           "Warning: empty x range [0:0], adjusting to [-1:1]\n"
                           "warning: something else\n");
    free(msgs);
    tt_plot_render_close(&r);
    /* only notes, on a figure drawn: nothing to say */
    cr_assert_eq(render(ctx, &c, &r, "echo 'Warning: empty y range [1:1], adjusting to [0.99:1.01]' "
                                     ">&2\nprintf PNG\n", &msgs), 0);
    cr_expect_null(msgs, "%s", msgs);
    tt_plot_render_close(&r);
    cr_expect(dir_is_empty(c.tmp));
    tt_ctx_free(ctx);
    draw_teardown(&c);
}

Test(run, save_script)
{
    drawcase c;
    draw_setup(&c);
    tt_ctx *ctx = tt_ctx_create();
    char path[256], want[4200];
    snprintf(path, sizeof path, "%s/kept.gp", c.base);
    cr_assert_eq(tt_plot_save_script(ctx, "plot x\n", path), 0, "%s", tt_errmsg(ctx));
    char *s = file_text(path);
    cr_expect_str_eq(s, "plot x\n");
    free(s);
    /* over an old one, whole */
    cr_assert_eq(tt_plot_save_script(ctx, "plot y\n", path), 0);
    s = file_text(path);
    cr_expect_str_eq(s, "plot y\n");
    free(s);
    snprintf(path, sizeof path, "%s/nodir/kept.gp", c.base);
    cr_expect_eq(tt_plot_save_script(ctx, "plot x\n", path), TT_EIO);
    snprintf(want, sizeof want, "cannot write '%s': No such file or directory", path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    /* a folder in the way: refused, nothing written beside it */
    snprintf(path, sizeof path, "%s/dir.gp", c.base);
    cr_assert_eq(mkdir(path, 0700), 0);
    cr_expect_eq(tt_plot_save_script(ctx, "plot x\n", path), TT_EIO);
    snprintf(want, sizeof want,
             "cannot write '%s': a folder, not a regular file: refusing to replace it", path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    snprintf(want, sizeof want, "cd '%s' && test \"$(ls -A | tr '\\n' ' ')\" = "
             "'dir.gp gnuplot kept.gp tmp '", c.base);
    cr_expect_eq(system(want), 0, "a temporary file is left");
    tt_ctx_free(ctx);
    draw_teardown(&c);
}
