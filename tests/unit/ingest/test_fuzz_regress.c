/* Replays every saved fuzz input (tests/fuzz/corpus, tests/fuzz/crashers)
 * through every format. Under `make sanitize` this
 * catches memory errors that once crashed a parser. */
#include <dirent.h>
#include <sys/stat.h>

#include "testutil.h"

static int replay_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *fp = fopen(path, "rb");
        if (!fp)
            continue;
        static char buf[1 << 20];
        size_t n = fread(buf, 1, sizeof buf, fp);
        fclose(fp);
        if (n == 0)
            continue;
        /* The first byte chose the fuzzer's format; replay the rest as every
         * format, which includes that one. */
        const char *const *names = tt_ingest_format_list();
        int nf = 0;
        while (names[nf])
            nf++;
        for (int k = 0; k <= nf; k++) {
            tt_ingest_opts o = {k < nf ? names[k] : "auto", NULL, NULL};
            tt_ctx *ctx = tt_ctx_create();
            tt_trace *t = NULL;
            int rc = tt_ingest_mem(ctx, &o, buf + 1, n - 1, e->d_name, &t);
            cr_expect(rc == 0 ? t != NULL : (t == NULL && *tt_errmsg(ctx)),
                      "%s as %s: a failure must come with a message", path, o.format);
            tt_trace_free(t);
            tt_ctx_free(ctx);
        }
        files++;
    }
    closedir(d);
    return files;
}

Test(fuzz, replay_saved_inputs)
{
    int n = replay_dir("tests/fuzz/corpus") + replay_dir("tests/fuzz/crashers");
    cr_expect(n > 0, "no saved fuzz inputs found (run from the repository root)");
}
