/* Output files whole or not at all: the temporary name, the write and the
 * rename, and what is left when either fails. */
#include <fcntl.h>
#include <sys/stat.h>

#include "testutil.h"
#include "tt/outfile.h"

/* A fresh folder for one test; removed by rm_dir. */
static void make_dir(char *dir, size_t size)
{
    snprintf(dir, size, "/tmp/tt-test-outfile-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void rm_dir(const char *dir)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

/* The names in dir, sorted, space-separated (dot files too). */
static const char *listing(const char *dir)
{
    static char out[1024];
    char cmd[256];
    snprintf(cmd, sizeof cmd, "cd '%s' && ls -A | tr '\\n' ' '", dir);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    pclose(p);
    return out;
}

static char *text_of(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

Test(outfile, temporary_name_beside_the_output)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_outfile o;
    char want[64];
    cr_assert_eq(tt_outfile_open(ctx, &o, "/tmp/x/out.h5"), 0);
    cr_expect_str_eq(o.target, "/tmp/x/out.h5");
    snprintf(want, sizeof want, "/tmp/x/.out.h5.tmp-%d", (int)getpid());
    cr_expect_str_eq(o.tmp, want);
    cr_assert_eq(tt_outfile_open(ctx, &o, "out.h5"), 0);
    snprintf(want, sizeof want, ".out.h5.tmp-%d", (int)getpid());
    cr_expect_str_eq(o.tmp, want);
    static char longname[5000];
    memset(longname, 'a', sizeof longname - 1);
    cr_expect_eq(tt_outfile_open(ctx, &o, longname), TT_EINVAL);
    cr_expect_eq(strncmp(tt_errmsg(ctx), "output name too long: 'aaa", 26), 0, "%s",
                 tt_errmsg(ctx));
    cr_expect_str_eq(o.tmp, "");
    cr_expect_str_eq(o.target, "");
    tt_ctx_free(ctx);
}

Test(outfile, write_replaces_whole)
{
    tt_ctx *ctx = tt_ctx_create();
    char dir[64], path[128], want[256];
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out.txt", dir);
    tt_outfile o;
    cr_assert_eq(tt_outfile_open(ctx, &o, path), 0);
    cr_assert_eq(tt_outfile_write(ctx, &o, "one\n", 4), 0, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(text_of(path), "one\n");
    cr_assert_eq(tt_outfile_write(ctx, &o, "two\n", 4), 0, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(text_of(path), "two\n");
    cr_expect_str_eq(listing(dir), "out.txt ");
    /* a folder that does not exist: the message names the output */
    snprintf(path, sizeof path, "%s/nodir/out.txt", dir);
    cr_assert_eq(tt_outfile_open(ctx, &o, path), 0);
    cr_expect_eq(tt_outfile_write(ctx, &o, "x", 1), TT_EIO);
    snprintf(want, sizeof want, "cannot write '%s': No such file or directory", path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    rm_dir(dir);
    tt_ctx_free(ctx);
}

Test(outfile, failed_rename_leaves_nothing)
{
    tt_ctx *ctx = tt_ctx_create();
    char dir[64], path[128], inner[160], want[256];
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out", dir);
    tt_outfile o;
    cr_assert_eq(tt_outfile_open(ctx, &o, path), 0);
    /* a folder appears under the name after the checks: rename cannot
     * replace it (not empty) */
    cr_assert_eq(mkdir(path, 0700), 0);
    snprintf(inner, sizeof inner, "%s/x", path);
    cr_assert_eq(mkdir(inner, 0700), 0);
    cr_expect_eq(tt_outfile_write(ctx, &o, "x", 1), TT_EIO);
    snprintf(want, sizeof want, "cannot write '%s': Is a directory", path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    cr_expect_str_eq(listing(dir), "out ");
    rm_dir(dir);
    tt_ctx_free(ctx);
}

Test(outfile, same_file_through_links)
{
    char dir[64], a[128], b[128], c[128], d[128];
    make_dir(dir, sizeof dir);
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    snprintf(c, sizeof c, "%s/c", dir);
    snprintf(d, sizeof d, "%s/d", dir);
    FILE *f = fopen(a, "w");
    cr_assert_not_null(f);
    fclose(f);
    cr_assert_eq(symlink("a", b), 0);
    cr_assert_eq(link(a, c), 0);
    cr_expect(tt_same_file(a, a));
    cr_expect(tt_same_file(a, b));
    cr_expect(tt_same_file(b, c));
    cr_expect(!tt_same_file(a, d)); /* d does not exist */
    cr_expect(!tt_same_file(d, d));
    cr_expect(!tt_same_file(a, dir));
    rm_dir(dir);
}

Test(outfile, links_followed)
{
    tt_ctx *ctx = tt_ctx_create();
    char dir[64], path[128], want[256];
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/sub", dir);
    cr_assert_eq(mkdir(path, 0700), 0);
    /* link -> sub/l2 -> real (relative to sub), real absent */
    snprintf(path, sizeof path, "%s/link", dir);
    cr_assert_eq(symlink("sub/l2", path), 0);
    snprintf(want, sizeof want, "%s/sub/l2", dir);
    cr_assert_eq(symlink("real", want), 0);
    tt_outfile o;
    cr_assert_eq(tt_outfile_open(ctx, &o, path), 0, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(o.path, path);
    snprintf(want, sizeof want, "%s/sub/real", dir);
    cr_expect_str_eq(o.target, want);
    snprintf(want, sizeof want, "%s/sub/.real.tmp-%d", dir, (int)getpid());
    cr_expect_str_eq(o.tmp, want);
    cr_expect_eq(o.mode, -1);
    cr_assert_eq(tt_outfile_write(ctx, &o, "new\n", 4), 0, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(text_of(path), "new\n");
    cr_expect_str_eq(listing(dir), "link sub ");
    snprintf(want, sizeof want, "%s/sub", dir);
    cr_expect_str_eq(listing(want), "l2 real ");
    /* a loop of links */
    snprintf(path, sizeof path, "%s/loop", dir);
    cr_assert_eq(symlink("loop", path), 0);
    cr_expect_eq(tt_outfile_open(ctx, &o, path), TT_EIO);
    snprintf(want, sizeof want, "cannot write '%s': Too many levels of symbolic links", path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    cr_expect_str_eq(o.tmp, "");
    rm_dir(dir);
    tt_ctx_free(ctx);
}

Test(outfile, only_a_regular_file_replaced)
{
    tt_ctx *ctx = tt_ctx_create();
    char dir[64], path[128], link[128], want[512];
    make_dir(dir, sizeof dir);
    tt_outfile o;
    snprintf(path, sizeof path, "%s/fifo", dir);
    cr_assert_eq(mkfifo(path, 0600), 0);
    cr_expect_eq(tt_outfile_open(ctx, &o, path), TT_EIO);
    snprintf(want, sizeof want,
             "cannot write '%s': a FIFO, not a regular file: refusing to replace it", path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    cr_expect_str_eq(o.tmp, "");
    snprintf(link, sizeof link, "%s/link", dir);
    cr_assert_eq(symlink(path, link), 0);
    cr_expect_eq(tt_outfile_open(ctx, &o, link), TT_EIO);
    snprintf(want, sizeof want,
             "cannot write '%s' ('%s'): a FIFO, not a regular file: refusing to replace it",
             link, path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    cr_expect_eq(tt_outfile_open(ctx, &o, dir), TT_EIO);
    snprintf(want, sizeof want,
             "cannot write '%s': a folder, not a regular file: refusing to replace it", dir);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    cr_expect_eq(tt_outfile_open(ctx, &o, "/dev/null"), TT_EIO);
    cr_expect_str_eq(tt_errmsg(ctx), "cannot write '/dev/null': a character device, not a "
                                     "regular file: refusing to replace it");
    cr_expect_str_eq(listing(dir), "fifo link ");
    rm_dir(dir);
    tt_ctx_free(ctx);
}

Test(outfile, mode_kept)
{
    tt_ctx *ctx = tt_ctx_create();
    char dir[64], path[128];
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out", dir);
    tt_outfile o;
    struct stat st;
    cr_assert_eq(tt_outfile_open(ctx, &o, path), 0);
    cr_assert_eq(tt_outfile_write(ctx, &o, "a", 1), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(chmod(path, 0604), 0);
    cr_assert_eq(tt_outfile_open(ctx, &o, path), 0);
    cr_expect_eq(o.mode, 0604);
    cr_assert_eq(tt_outfile_write(ctx, &o, "b", 1), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(stat(path, &st), 0);
    cr_expect_eq(st.st_mode & 07777, 0604, "mode %o", (unsigned)(st.st_mode & 07777));
    /* a file another program wrote under tmp gets it too */
    cr_assert_eq(chmod(path, 0600), 0);
    cr_assert_eq(tt_outfile_open(ctx, &o, path), 0);
    FILE *f = fopen(o.tmp, "w");
    cr_assert_not_null(f);
    fputs("c", f);
    fclose(f);
    cr_assert_eq(tt_outfile_commit(ctx, &o), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(stat(path, &st), 0);
    cr_expect_eq(st.st_mode & 07777, 0600);
    cr_expect_str_eq(text_of(path), "c");
    rm_dir(dir);
    tt_ctx_free(ctx);
}

Test(outfile, check_inputs_and_folder)
{
    tt_ctx *ctx = tt_ctx_create();
    char dir[64], a[128], b[128], c[128], want[512];
    make_dir(dir, sizeof dir);
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    snprintf(c, sizeof c, "%s/c", dir);
    FILE *f = fopen(a, "w");
    cr_assert_not_null(f);
    fclose(f);
    cr_assert_eq(symlink("a", b), 0);
    tt_outfile o;
    const char *in[] = {c, NULL, a};
    cr_expect_eq(tt_outfile_check(ctx, &o, b, in, 3), TT_EINVAL);
    snprintf(want, sizeof want, "output '%s' is also the input '%s': refusing to overwrite it",
             b, a);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    cr_expect_str_eq(o.tmp, "");
    /* not an input: checked, and the folder takes a file; nothing left */
    cr_expect_eq(tt_outfile_check(ctx, &o, c, in, 2), 0, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(listing(dir), "a b ");
    /* standard input is the output */
    int saved = dup(STDIN_FILENO);
    cr_assert(freopen(a, "r", stdin) != NULL);
    const char *dash[] = {"-"};
    cr_expect_eq(tt_outfile_check(ctx, &o, b, dash, 1), TT_EINVAL);
    snprintf(want, sizeof want, "output '%s' is also the input '-': refusing to overwrite it", b);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    dup2(saved, STDIN_FILENO);
    close(saved);
    /* a folder that does not exist: said by the check */
    snprintf(c, sizeof c, "%s/nodir/c", dir);
    cr_expect_eq(tt_outfile_check(ctx, &o, c, NULL, 0), TT_EIO);
    snprintf(want, sizeof want, "cannot write '%s': No such file or directory", c);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    rm_dir(dir);
    tt_ctx_free(ctx);
}

/* "-" is standard output: the bytes go to descriptor 1 in one piece, no
 * file named "-" and no temporary one; commit (a file written by name) is
 * refused; standard output sent into an input is refused by the check. */
Test(outfile, dash_is_standard_output)
{
    tt_ctx *ctx = tt_ctx_create();
    char dir[64], path[128];
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out.txt", dir);
    tt_outfile o;
    cr_assert_eq(tt_outfile_open(ctx, &o, "-"), 0);
    cr_expect_str_eq(o.target, "-");
    cr_expect_str_eq(o.tmp, "");
    cr_expect_eq(tt_outfile_commit(ctx, &o), TT_EINVAL);
    int saved = dup(STDOUT_FILENO), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cr_assert(saved >= 0 && fd >= 0);
    fflush(stdout);
    dup2(fd, STDOUT_FILENO);
    int rc = tt_outfile_write(ctx, &o, "bytes\n", 6);
    const char *in[] = {"-", path};
    int rc_in = tt_outfile_check(ctx, &o, "-", in, 1);
    int rc_self = tt_outfile_check(ctx, &o, "-", in, 2);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    close(fd);
    cr_expect_eq(rc, 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(rc_in, 0); /* standard input is not standard output */
    cr_expect_eq(rc_self, TT_EINVAL);
    char want[256];
    snprintf(want, sizeof want, "standard output is also the input '%s': refusing to overwrite it",
             path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    cr_expect_str_eq(text_of(path), "bytes\n");
    cr_expect_str_eq(listing(dir), "out.txt ");
    rm_dir(dir);
    tt_ctx_free(ctx);
}
