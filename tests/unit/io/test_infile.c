/* Inputs named on a command line: a file as it is, "-" copied to a private
 * temporary file in $TMPDIR and removed by close. */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "testutil.h"
#include "tt/infile.h"

/* A private $TMPDIR, and len bytes of data as standard input (a pipe, the
 * case HDF5 cannot read in place; fits the pipe buffer). */
static void setup(char *tmp, const char *data, size_t len)
{
    strcpy(tmp, "/tmp/tt-test-infile.XXXXXX");
    cr_assert_not_null(mkdtemp(tmp));
    setenv("TMPDIR", tmp, 1);
    int p[2];
    cr_assert_eq(pipe(p), 0);
    cr_assert_eq(write(p[1], data, len), (ssize_t)len);
    close(p[1]);
    cr_assert_eq(dup2(p[0], STDIN_FILENO), STDIN_FILENO);
    close(p[0]);
}

static int files_in(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

Test(infile, a_file_is_opened_as_it_is)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_infile in;
    cr_assert_eq(tt_infile_init(ctx, &in, "trace.h5"), 0);
    cr_expect_str_eq(in.path, "trace.h5");
    cr_expect_str_eq(in.spool, "");
    cr_assert_eq(tt_infile_open(ctx, &in), 0);
    cr_expect_str_eq(in.path, "trace.h5");
    tt_infile_close(&in);
    tt_ctx_free(ctx);
}

Test(infile, stdin_is_spooled_privately_and_removed)
{
    char tmp[64], want[128];
    static const char data[] = "\x89HDF\r\n\x1a\n\0binary\0bytes";
    setup(tmp, data, sizeof data);
    tt_ctx *ctx = tt_ctx_create();
    tt_infile in;
    cr_assert_eq(tt_infile_init(ctx, &in, "-"), 0);
    snprintf(want, sizeof want, "%s/tt-stdin.XXXXXX", tmp);
    cr_expect_str_eq(in.spool, want, "the template, before anything exists");
    cr_expect_str_eq(in.path, "");
    cr_expect_eq(files_in(tmp), 0);
    cr_assert_eq(tt_infile_open(ctx, &in), 0, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(in.path, in.spool);
    cr_expect_eq(strncmp(in.spool, want, strlen(want) - 6), 0, "%s", in.spool);
    cr_expect_null(strstr(in.spool, "XXXXXX"), "%s", in.spool);
    struct stat st;
    cr_assert_eq(stat(in.path, &st), 0);
    cr_expect_eq(st.st_mode & 0777, 0600);
    char got[64];
    int fd = open(in.path, O_RDONLY);
    cr_assert_geq(fd, 0);
    cr_expect_eq(read(fd, got, sizeof got), (ssize_t)sizeof data);
    cr_expect_eq(memcmp(got, data, sizeof data), 0, "the bytes, NULs included");
    close(fd);
    tt_infile_close(&in);
    cr_expect_str_eq(in.spool, "");
    cr_expect_eq(files_in(tmp), 0, "the copy is removed");
    rmdir(tmp);
    tt_ctx_free(ctx);
}

Test(infile, empty_tmpdir_is_tmp)
{
    setenv("TMPDIR", "", 1);
    tt_infile in;
    cr_assert_eq(tt_infile_init(NULL, &in, "-"), 0);
    cr_expect_str_eq(in.spool, "/tmp/tt-stdin.XXXXXX");
    unsetenv("TMPDIR");
    cr_assert_eq(tt_infile_init(NULL, &in, "-"), 0);
    cr_expect_str_eq(in.spool, "/tmp/tt-stdin.XXXXXX");
}

Test(infile, errors_leave_nothing)
{
    char tmp[64], nope[128], want[256];
    setup(tmp, "x", 1);
    tt_ctx *ctx = tt_ctx_create();
    tt_infile in;
    snprintf(nope, sizeof nope, "%s/nope", tmp);
    setenv("TMPDIR", nope, 1);
    cr_assert_eq(tt_infile_init(ctx, &in, "-"), 0);
    cr_expect_eq(tt_infile_open(ctx, &in), TT_EIO);
    snprintf(want, sizeof want,
             "cannot keep standard input in a temporary file in '%s': No such file or directory",
             nope);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    cr_expect_str_eq(in.spool, "");
    cr_expect_str_eq(in.path, "");
    /* standard input that cannot be read: the copy made is removed */
    setenv("TMPDIR", tmp, 1);
    int fd = open(tmp, O_RDONLY | O_DIRECTORY);
    cr_assert_eq(dup2(fd, STDIN_FILENO), STDIN_FILENO);
    close(fd);
    cr_assert_eq(tt_infile_init(ctx, &in, "-"), 0);
    cr_expect_eq(tt_infile_open(ctx, &in), TT_EIO);
    cr_expect_str_eq(tt_errmsg(ctx), "cannot read standard input: Is a directory");
    cr_expect_str_eq(in.spool, "");
    cr_expect_eq(files_in(tmp), 0);
    /* a name too long */
    char longname[5000];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    cr_expect_eq(tt_infile_init(ctx, &in, longname), TT_EINVAL);
    cr_expect_str_eq(in.path, "");
    rmdir(tmp);
    tt_ctx_free(ctx);
}
