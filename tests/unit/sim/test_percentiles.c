/* The percentiles at the end of a run (kernels/sim_step_summary.h): the
 * selection puts in place what a sort would, at one rank or several at
 * once, on inputs with many ties, in order, reversed, all equal, and with
 * the round budget cut so that its heapsort fallback runs; tts_percentiles
 * gives the nearest ranks of the sorted values. */
#include "testutil.h"

#include "randcase.h"
#include "sim_step.h"

enum { MAXN = 5000 };

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Values of shape s: 0 wide random, 1 few distinct (mostly 0, as queueing
 * delays), 2 ascending, 3 descending, 4 all equal, 5 organ pipe. */
static void fill(int64_t *a, int64_t n, int s, uint64_t *seed)
{
    for (int64_t i = 0; i < n; i++) {
        switch (s) {
        case 0: a[i] = (int64_t)(rc_next(seed) >> 1) - ((int64_t)1 << 62); break;
        case 1: a[i] = rc_pick(seed, 0, 9) < 7 ? 0 : rc_pick(seed, 1, 4); break;
        case 2: a[i] = i / 3; break;
        case 3: a[i] = n - i; break;
        case 4: a[i] = 42; break;
        default: a[i] = i < n / 2 ? i : n - i; break;
        }
    }
}

/* a[k] is sorted[k], nothing greater before it, nothing smaller after. */
static void check_selected(const int64_t *a, const int64_t *sorted, int64_t n, int64_t k)
{
    cr_assert_eq(a[k], sorted[k], "n %lld k %lld: %lld, sorted %lld", (long long)n, (long long)k,
                 (long long)a[k], (long long)sorted[k]);
    for (int64_t i = 0; i < n; i++)
        cr_assert(i < k ? a[i] <= a[k] : i > k ? a[i] >= a[k] : 1, "n %lld k %lld at %lld",
                  (long long)n, (long long)k, (long long)i);
}

static int cmp_rank(const void *a, const void *b) { return cmp64(a, b); }

Test(percentiles, select_puts_what_a_sort_would)
{
    static int64_t a[MAXN], sorted[MAXN];
    static const int64_t ns[] = {1, 2, 3, 7, 16, 100, 1001, MAXN};
    uint64_t seed = 7;
    for (size_t q = 0; q < sizeof ns / sizeof ns[0]; q++)
        for (int s = 0; s < 6; s++)
            for (int t = 0; t < 8; t++) {
                int64_t n = ns[q], rk[TTS_SELECT_MAX];
                /* one rank (the first, the last, any) or several distinct */
                int32_t nr = t < 4 ? 1 : (int32_t)rc_pick(&seed, 1, TTS_SELECT_MAX);
                rk[0] = t == 0 ? 0 : t == 1 ? n - 1 : rc_pick(&seed, 0, n - 1);
                for (int32_t u = 1; u < nr; u++)
                    rk[u] = rc_pick(&seed, 0, n - 1);
                qsort(rk, (size_t)nr, sizeof *rk, cmp_rank);
                int32_t d = 1;
                for (int32_t u = 1; u < nr; u++)
                    if (rk[u] != rk[d - 1])
                        rk[d++] = rk[u];
                /* rounds: none (heapsort at once), a few (heapsort midway), the default */
                for (int r = 0; r < 3; r++) {
                    fill(a, n, s, &seed);
                    memcpy(sorted, a, (size_t)n * sizeof *a);
                    qsort(sorted, (size_t)n, sizeof *a, cmp64);
                    if (r == 2)
                        tts_select(a, n, rk, d);
                    else
                        tts_select_in(a, n, rk, d, r == 0 ? 0 : 2);
                    for (int32_t u = 0; u < d; u++)
                        check_selected(a, sorted, n, rk[u]);
                }
            }
}

Test(percentiles, nearest_ranks_of_the_sorted_values)
{
    static int64_t jct[MAXN], que[MAXN], sj[MAXN], sq[MAXN];
    uint64_t seed = 11;
    for (int64_t n = 1; n <= 400; n += n < 120 ? 1 : 37)
        for (int s = 0; s < 6; s++) {
            fill(jct, n, s, &seed);
            fill(que, n, (s + 1) % 6, &seed);
            memcpy(sj, jct, (size_t)n * sizeof *jct);
            memcpy(sq, que, (size_t)n * sizeof *que);
            qsort(sj, (size_t)n, sizeof *sj, cmp64);
            qsort(sq, (size_t)n, sizeof *sq, cmp64);
            tts_summary m;
            memset(&m, 0, sizeof m);
            m.accepted = n;
            tts_percentiles(&m, jct, que);
            /* nearest rank: the ceil(p n / 100)-th smallest */
            cr_assert_eq(m.jct_p50, sj[(50 * n + 99) / 100 - 1], "n %lld", (long long)n);
            cr_assert_eq(m.jct_p90, sj[(90 * n + 99) / 100 - 1], "n %lld", (long long)n);
            cr_assert_eq(m.jct_p99, sj[(99 * n + 99) / 100 - 1], "n %lld", (long long)n);
            cr_assert_eq(m.que_p99, sq[(99 * n + 99) / 100 - 1], "n %lld", (long long)n);
        }
}

Test(percentiles, none_accepted_gives_zero)
{
    int64_t jct[1] = {5}, que[1] = {6};
    tts_summary m;
    memset(&m, 0xff, sizeof m);
    m.accepted = 0;
    tts_percentiles(&m, jct, que);
    cr_assert(m.jct_p50 == 0 && m.jct_p90 == 0 && m.jct_p99 == 0 && m.que_p99 == 0);
}
