/* Named baselines (SPEC 11.9 and 10.11): each is a list of NAME=VALUE settings that
 * tt_params_set applies in order, so a preset is a parameter point and
 * nothing else, and the later ones (elastic, workflows) are one line here.
 * tt_params_set reads "preset" through tt_params_preset; sweeps apply it
 * before every other parameter (tt/sweep.h). */
#include <stdio.h>
#include <string.h>

#include "tt/sim.h"

typedef struct {
    const char *name;
    const char *settings; /* NAME=VALUE separated by spaces */
} preset;

/* The Gittins preset takes Tiresias's own distribution, yarn-gput1000.csv
 * (Apache-2.0, compiled in: data/gittins/README.md); gittins_dist=trace
 * gives the trace's own sizes instead (an oracle). Both Tiresias presets
 * place by GPU count (w0 = w1 = 0), as Tiresias does. */
static const preset presets[] = {
    {"yarn-cs", "order=fifo w0=inf w1=inf"},
    {"tiresias-dlas", "order=dlas mlfq=3250,7200 w0=0 w1=0"},
    {"tiresias-gittins", "order=gittins mlfq=3250,7200 gittins_delta=3250 gittins_dist=yarn-gput1000 "
                         "w0=0 w1=0"},
    {"pollux-tiresias", "order=dlas mlfq=57600"},
    {"themis", "order=ftf"},
    /* SPEC 10.11: the Kubernetes default, and the elastic schedulers on its
     * order, timers and backfill, so that they differ from it in sizes and
     * the resize mechanism alone. SPEC leaves el_up and el_down open: 2 and
     * 1 let a job grow to four times its request or start at half of it,
     * room to fill idle GPUs with few sizes to weigh (SPEC 10.11).
     * resize_cost is the user's (its default, -p or a grid) */
    {"k8s-fixed", "el_up=0 el_down=0 order=fifo w0=0 w1=0 backfill=1"},
    {"elastic-term", "el_up=2 el_down=1 resize=term restart=30 order=fifo w0=0 w1=0 "
                     "backfill=1"},
    {"elastic-sidecar", "el_up=2 el_down=1 resize=sidecar order=fifo w0=0 w1=0 backfill=1"},
    {"start-smaller", "el_up=0 el_down=1 order=fifo w0=0 w1=0 backfill=1"},
    /* SPEC 12.11: each sets all four of section 12's policy parameters,
     * so a preset is its baseline whatever came before it; the GPUs hold
     * Philly's 24 GB (24576 MiB), and cache_slots, load_bw and xfer_bw stay
     * the hardware's (-p). w_warm=5 is the most a warm node saves a task
     * of the tt-gen shapes: a load of at most 1 s plus up to 4 s of
     * transfers (docs/model.md 13, item 15) */
    {"wf-deps", "gpu_mem=0 evict=lru cache_place=off w_warm=0"},
    {"cache-lru", "gpu_mem=24576 evict=lru cache_place=off w_warm=0"},
    {"heft-like", "gpu_mem=24576 evict=lru cache_place=affinity w_warm=0"},
    {"compass-like", "gpu_mem=24576 evict=demand cache_place=affinity w_warm=5"},
    /* Tiresias's released simulator (SymbioticLab/Tiresias @ 959f9b0,
     * simulator/, its dlas-gpu and dlas-gpu-gittins runs): placement by
     * count, evictions at once, free and without limit, its order inside a
     * queue and its greedy refill (docs/studies.md, "Against Tiresias's
     * simulator"); give the cluster as one node of its GPUs (-c 1x1xG) */
    {"tiresias-sim-dlas", "order=dlas mlfq=3250,7200 promote=0 w0=0 w1=0 min_run=0 restart=0 "
                          "max_preempt=2147483647 requeue=front prio_victims=refill"},
    {"tiresias-sim-gittins", "order=gittins mlfq=3250,7200 gittins_delta=3250 "
                             "gittins_dist=yarn-gput1000 promote=0 w0=0 w1=0 min_run=0 "
                             "restart=0 max_preempt=2147483647 requeue=front "
                             "prio_victims=refill"},
};
#define NPRESETS (sizeof presets / sizeof presets[0])

const char *tt_preset_name(int i)
{
    return i >= 0 && (size_t)i < NPRESETS ? presets[i].name : NULL;
}

const char *tt_preset_settings(int i)
{
    return i >= 0 && (size_t)i < NPRESETS ? presets[i].settings : NULL;
}

int tt_params_preset(tt_ctx *ctx, tt_params *p, const char *name)
{
    for (size_t i = 0; i < NPRESETS; i++) {
        if (strcmp(presets[i].name, name) != 0)
            continue;
        tt_params q = *p;
        const char *at = presets[i].settings;
        while (*at) {
            char item[128], key[64];
            size_t len = strcspn(at, " ");
            snprintf(item, sizeof item, "%.*s", (int)len, at);
            char *eq = strchr(item, '=');
            if (!eq)
                return tt_err(ctx, TT_EINVAL, "preset '%s': bad setting '%s'", name, item);
            snprintf(key, sizeof key, "%.*s", (int)(eq - item), item);
            int rc = tt_params_set(ctx, &q, NULL, key, eq + 1);
            if (rc)
                return rc;
            at += len;
            at += strspn(at, " ");
        }
        *p = q;
        return 0;
    }
    char known[512] = "";
    size_t k = 0;
    for (size_t i = 0; i < NPRESETS; i++)
        k += (size_t)snprintf(known + k, sizeof known - k, "%s%s", i ? ", " : "",
                              presets[i].name);
    return tt_err(ctx, TT_EINVAL, "parameter 'preset': expected one of %s, got '%.60s'", known,
                  name);
}
