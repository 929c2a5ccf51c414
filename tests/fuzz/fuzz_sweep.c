/* A sweep as tt-sweep builds it: lines "g NAME=SPEC" (-g), "p NAME=VALUE"
 * (-p) and "c" (--configs: the lines after it are the configurations
 * file), in order, over the built-in model table. Whatever builds must
 * give valid parameter sets for its first, middle and last configurations.
 * Seeds: tests/fuzz/corpus/sweep. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "tt/sweep.h"

static void configurations(tt_ctx *ctx, const tt_sweep *s)
{
    int64_t n = tt_sweep_count(s);
    FUZZ_CHECK(n >= 1 && n <= TT_SWEEP_MAX_CONFIGS, "%lld configurations", (long long)n);
    int64_t ks[] = {0, n / 2, n - 1, n, -1};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        tt_params p;
        int rc = tt_sweep_params(ctx, s, ks[i], &p);
        fuzz_check_rc(ctx, rc, "tt_sweep_params");
        FUZZ_CHECK((rc == 0) == (ks[i] >= 0 && ks[i] < n), "configuration %lld of %lld: %s",
                   (long long)ks[i], (long long)n, tt_errmsg(ctx));
        char label[128];
        if (rc == 0)
            tt_sweep_label(s, ks[i], label, sizeof label);
    }
    char hex[65];
    if (n <= 4096)
        fuzz_check_rc(ctx, tt_sweep_digest(ctx, s, hex), "tt_sweep_digest");
}

int fuzz_sweep(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), *cur = text, *line;
    tt_ctx *ctx = tt_ctx_create();
    tt_sweep *s = NULL;
    if (tt_sweep_create(ctx, fuzz_models(), &s))
        fuzz_fail("tt_sweep_create: %s", tt_errmsg(ctx));
    while ((line = fuzz_line(&cur))) {
        if (line[0] == 'c') {
            const char *rest = cur ? cur : "";
            const char *path = fuzz_file("configs.tsv", rest, strlen(rest));
            fuzz_check_rc(ctx, tt_sweep_configs(ctx, s, path), "tt_sweep_configs");
            break;
        }
        if ((line[0] != 'g' && line[0] != 'p') || line[1] != ' ')
            continue;
        char *eq = strchr(line + 2, '=');
        if (eq)
            *eq = '\0';
        const char *value = eq ? eq + 1 : "";
        int rc = line[0] == 'g' ? tt_sweep_grid(ctx, s, line + 2, value)
                                : tt_sweep_fix(ctx, s, line + 2, value);
        fuzz_check_rc(ctx, rc, line[0] == 'g' ? "tt_sweep_grid" : "tt_sweep_fix");
    }
    configurations(ctx, s);
    tt_sweep_free(s);
    tt_ctx_free(ctx);
    free(text);
    return 0;
}
