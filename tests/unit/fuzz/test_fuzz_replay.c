/* Replays every saved input of every fuzzer (tests/fuzz/corpus/NAME, the
 * seeds, and tests/fuzz/crashers/NAME, what the fuzzers once found)
 * through the fuzzer's own entry point (tests/fuzz/fuzz_NAME.c), which
 * checks the library's promises as libFuzzer ran it. Under `make sanitize`
 * this catches the memory errors that once crashed a parser. A missing
 * folder is a failure: a replay of nothing would pass. */
#include <dirent.h>

#include "../../fuzz/fuzz.h"
#include "testutil.h"

typedef int (*entry_fn)(const uint8_t *, size_t);

static const struct {
    const char *name;
    entry_fn entry;
} fuzzers[] = {{"ingest", fuzz_ingest}, {"params", fuzz_params}, {"sweep", fuzz_sweep},
               {"tune", fuzz_tune},     {"tables", fuzz_tables}, {"h5", fuzz_h5}};

/* The first byte of an ingest input picks its format: each input is
 * replayed as every format too, as the test of the formats did before
 * there were several fuzzers. */
static void every_format(uint8_t *buf, size_t n)
{
    int nf = 0;
    while (tt_ingest_format_list()[nf])
        nf++;
    for (int k = 0; k <= nf; k++) {
        buf[0] = (uint8_t)k;
        fuzz_ingest(buf, n);
    }
}

/* Replays the files of dir; the number replayed, -1 when dir is missing. */
static int replay_dir(const char *dir, entry_fn entry)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int files = 0;
    struct dirent *e;
    static uint8_t buf[1 << 20];
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *fp = fopen(path, "rb");
        cr_assert(fp, "cannot open %s", path);
        size_t n = fread(buf, 1, sizeof buf, fp);
        fclose(fp);
        entry(buf, n);
        if (entry == fuzz_ingest && n > 0)
            every_format(buf, n);
        files++;
    }
    closedir(d);
    return files;
}

Test(fuzz, replay_corpus_and_crashers)
{
    for (size_t i = 0; i < sizeof fuzzers / sizeof fuzzers[0]; i++) {
        char dir[256];
        snprintf(dir, sizeof dir, "tests/fuzz/corpus/%s", fuzzers[i].name);
        int seeds = replay_dir(dir, fuzzers[i].entry);
        cr_expect(seeds > 0, "%s: no seeds (run from the repository root)", dir);
        snprintf(dir, sizeof dir, "tests/fuzz/crashers/%s", fuzzers[i].name);
        cr_expect(replay_dir(dir, fuzzers[i].entry) >= 0, "%s: missing", dir);
    }
}
