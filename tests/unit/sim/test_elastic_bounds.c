/* Elastic jobs (docs/model.md section 12, SPEC 10) at the edges of their
 * rules, each worked by hand on both sides of the edge: a grow's gain of
 * exactly 0 (at L0, and at L1 where L0's would be positive) against one
 * of 1; a grow at exactly resize_gap after the last resize; the reclaim's
 * loan holders halving lowest index first; sizes that halve only when 2^d
 * divides k0. Jobs of class `lin` (sp 1000, 2000, 4000, 8000) with SPEC
 * 10.10's resize_cost 10, restart 30, resize_gap 0 unless said. */
#include "ecase.h"

/* ---- the gain: a grow needs g > 0 (10.4) ---- */

/* 1x1x8, el_up 1: J0 (elastic, 4 GPUs, dur) and J1 (4 GPUs, 100 s) at 0.
 * No GPU is free until J1 ends at 100; then J0 has w = (dur - 100) x
 * 1000 and the gain of growing to 8 on its node (L0, s = 1000 x 4000 /
 * 8000 = 500) is w x (1000 - 500) / 10^6 - C. */
static void gain_l0(ecase *k, int64_t dur)
{
    ecase_init(k, 1, 1, 8);
    k->p.el_up = 1;
    ejob(k, 0, dur, 4, 1);
    ejob(k, 0, 100, 4, 0);
}

/* dur 120: w = 20,000, gain 10 - 10 = 0: no grow, J0 ends at 120. dur
 * 122: w = 22,000, gain 11 - 10 = 1: it grows (r = 10, s = 500) and ends
 * at 100 + 10 + 11 = 121; resize_gpu_s 8 x 10, loan_gpu_s 4 x 21. */
Test(elastic_bounds, zero_gain_at_l0)
{
    ecase k;
    tt_job_result out[2];
    tt_metrics m;
    gain_l0(&k, 120);
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[0].end, 120);
    cr_expect_eq(m.resizes, 0);
    cr_expect_eq(m.grows, 0);
    cr_expect_eq(m.loan_gpu_s, 0);
    gain_l0(&k, 122);
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[0].end, 121);
    cr_expect_eq(m.resizes, 1);
    cr_expect_eq(m.grows, 1);
    cr_expect_eq(m.resize_gpu_s, 80);
    cr_expect_eq(m.loan_gpu_s, 84);
}

/* 1x2x4, el_up 1, w0 = 0 (w1 = inf: L1 allowed from the submit, a_v = 1),
 * L1 slowdown 1200. J0 (elastic, 2 GPUs, dur), J1 (2 GPUs, 1000 s) and
 * J2 (4 GPUs, 100 s) at 0: J0 and J1 share node 0 (best fit), J2 takes
 * node 1. At 100 J2 ends; J0's node has no free GPU, so its grow to 4
 * takes 2 on node 1: 4 GPUs on 2 nodes of a rack, L1, s = 1200 x (1000 x
 * 2000 / 4000) / 1000 = 600 against s = 1000 at 2. w = (dur - 100) x
 * 1000; the gain at L1 is w x 400 / 10^6 - 10, at L0 it would be w x 500
 * / 10^6 - 10. dur 125: w = 25,000, gain 10 - 10 = 0 at L1 (12 - 10 = 2
 * at L0): no grow, J0 ends at 125. dur 128: w = 28,000, gain 11 - 10 = 1:
 * it grows (r = 10) and ends at 100 + 10 + ceil(28,000 x 600 / 10^6) =
 * 127; loan_gpu_s 2 x 27. */
Test(elastic_bounds, zero_gain_at_l1)
{
    ecase k;
    tt_job_result out[3];
    tt_metrics m;
    for (int64_t dur = 125; dur <= 128; dur += 3) {
        ecase_init(&k, 1, 2, 4);
        k.p.el_up = 1;
        k.p.w0 = 0;
        k.slow_l1 = k.slow_l2 = 1200;
        ejob(&k, 0, dur, 2, 1);
        ejob(&k, 0, 1000, 2, 0);
        ejob(&k, 0, 100, 4, 0);
        cr_assert_eq(erun(&k, out, &m, NULL), 0);
        cr_expect_eq(out[2].end, 100);
        cr_expect_eq(out[0].end, dur == 125 ? 125 : 127, "dur %lld", (long long)dur);
        cr_expect_eq(m.resizes, dur == 125 ? 0 : 1, "dur %lld", (long long)dur);
        cr_expect_eq(m.loan_gpu_s, dur == 125 ? 0 : 54, "dur %lld", (long long)dur);
    }
}

/* ---- resize_gap: a grow at last resize + resize_gap, not before ---- */

/* 1x1x8, el_up 1: J0 (elastic, 4 GPUs, 1000 s) at 0, J1 (4 GPUs, 50 s) at
 * 100.
 * - 0: J0 starts at 4 and grows at once to 8 (gain 500, paid with the
 *   start): s = 500, end 500.
 * - 100: J1 reclaims 4: J0 halves (done 200,000, w = 800,000; r = 10, s =
 *   1000, end 910), its last resize. J1 runs 100..150.
 * - gap 0: at 150 J0 grows: w = 800,000 - (150 - 110) x 1000 = 760,000,
 *   gain 380 - 10 = 370; end 150 + 10 + 380 = 540.
 * - gap 100: at 150 the gap has not ended; its end at 200 is an event
 *   where J0 grows: w = 710,000, gain 355 - 10 = 345; end 200 + 10 + 355
 *   = 565. resize_gpu_s 4 x 10 + 8 x 10, loan_gpu_s 4 x 100 + 4 x 365.
 * - gap 101: at 201, w = 709,000, gain 354 - 10; end 201 + 10 +
 *   ceil(354.5) = 566. */
Test(elastic_bounds, grow_at_the_end_of_resize_gap)
{
    static const int64_t gaps[] = {0, 100, 101}, ends[] = {540, 565, 566};
    for (int x = 0; x < 3; x++) {
        ecase k;
        tt_job_result out[2];
        tt_metrics m;
        ecase_init(&k, 1, 1, 8);
        k.p.el_up = 1;
        k.p.resize_gap = gaps[x];
        ejob(&k, 0, 1000, 4, 1);
        ejob(&k, 100, 50, 4, 0);
        cr_assert_eq(erun(&k, out, &m, NULL), 0);
        cr_expect_eq(out[1].end, 150);
        cr_expect_eq(out[0].end, ends[x], "gap %lld: %lld", (long long)gaps[x],
                     (long long)out[0].end);
        cr_expect_eq(m.resizes, 2, "gap %lld", (long long)gaps[x]);
        cr_expect_eq(m.grows, 1);
        cr_expect_eq(m.shrinks, 1);
        if (gaps[x] == 100) {
            cr_expect_eq(m.resize_gpu_s, 120);
            cr_expect_eq(m.loan_gpu_s, 1860);
        }
    }
}

/* ---- reclaim: loan holders halve in index order (10.4 step 2) ---- */

/* 1x1x8, el_up 1: J0 and J1 (elastic, 2 GPUs, 1000 s) at 0, J2 (2 GPUs,
 * 100 s) at 100.
 * - 0: both start at 2 and grow at once to 4 (gains 500, scores equal:
 *   J0 first): s = 500, ends at 500, 2 GPUs loaned each.
 * - 100: J2 finds no free GPU; free + loaned 4 >= 2 on the node. J0, the
 *   lower index, halves first, and frees the 2 GPUs J2 needs: J1 keeps
 *   its size. J0: done 200,000, w = 800,000, r = 10, s = 1000.
 * - 200: J2 ends; J0 grows back: w = 710,000, gain 345; end 200 + 10 +
 *   355 = 565. J1 ends at 500. */
Test(elastic_bounds, reclaim_lowest_index_first)
{
    ecase k;
    tt_job_result out[3];
    tt_metrics m;
    ecase_init(&k, 1, 1, 8);
    k.p.el_up = 1;
    ejob(&k, 0, 1000, 2, 1);
    ejob(&k, 0, 1000, 2, 1);
    ejob(&k, 100, 100, 2, 0);
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[2].start, 100);
    cr_expect_eq(out[0].end, 565);
    cr_expect_eq(out[1].end, 500);
    cr_expect_eq(m.shrinks, 1);
    cr_expect_eq(m.grows, 1);
    cr_expect_eq(out[1].gpu_s, 4 * 500);
}

/* ---- sizes: k0 / 2^d only when 2^d divides k0 (10.1) ---- */

/* 1x1x4, el_down 1: J0 (2 GPUs, 100 s) and J1 (elastic, 3 GPUs, 100 s) at
 * 0. J1's only size is 3 (2 does not divide it): it waits for J0 and runs
 * 100..200 instead of starting at 1 beside it. 1x1x8, el_down 2: J0 (6
 * GPUs) and J1 (elastic, 6 GPUs), 100 s each: J1's sizes are 6 and 3 (4
 * does not divide 6, so not 1); 2 GPUs are free, too few for 3: it waits
 * for J0 too. */
Test(elastic_bounds, odd_sizes_do_not_halve)
{
    for (int x = 0; x < 2; x++) {
        ecase k;
        tt_job_result out[2];
        tt_metrics m;
        ecase_init(&k, 1, 1, x ? 8 : 4);
        k.p.el_down = x ? 2 : 1;
        ejob(&k, 0, 100, x ? 6 : 2, 0);
        ejob(&k, 0, 100, x ? 6 : 3, 1);
        cr_assert_eq(erun(&k, out, &m, NULL), 0);
        cr_expect_eq(out[1].start, 100, "k0 %d", k.gpus[1]);
        cr_expect_eq(out[1].end, 200, "k0 %d", k.gpus[1]);
        cr_expect_eq(m.resizes, 0);
    }
}
