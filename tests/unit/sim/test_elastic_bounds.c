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

/* The reclaim's L0 search is SPEC 6's best fit on free + loaned counts,
 * ties to the lower node. 1x2x4, el_up 1: J0 (elastic, 2 GPUs, 1000 s)
 * at 0 takes node 0 and grows at once to 4 (s = 500, end 500); J1 (the
 * same) at 1 takes node 1 and grows to 4 (end 501); J2 (2 GPUs, 100 s) at
 * 100 finds 2 free + loaned GPUs on each node and takes node 0: J0 halves
 * (w = 800,000, r = 10, s = 1000) and grows back when J2 ends at 200 (w
 * = 710,000, gain 345): end 200 + 10 + 355 = 565. */
Test(elastic_bounds, reclaim_ties_to_the_lower_node)
{
    ecase k;
    tt_job_result out[3];
    tt_metrics m;
    ecase_init(&k, 1, 2, 4);
    k.p.el_up = 1;
    ejob(&k, 0, 1000, 2, 1);
    ejob(&k, 1, 1000, 2, 1);
    ejob(&k, 100, 100, 2, 0);
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[2].start, 100);
    cr_expect_eq(out[0].end, 565);
    cr_expect_eq(out[1].end, 501);
    cr_expect_eq(m.shrinks, 1);
}

/* A holder halves only until the node has what the waiter takes there.
 * 1x1x8, el_up 2, backfill 0: J0 (elastic, 1 GPU, 1000 s) and J1 (4 GPUs,
 * 1000 s) at 0, J2 (2 GPUs, 100 s) and J3 (8 GPUs, 100 s) at 100.
 * - 0: J1 leaves 3 GPUs free; J0 grows at once to 2 and 4 (gains 500,
 *   then 250): s = 1000 x 1000 / 4000 = 250, end 250.
 * - 100: J2 reclaims 2: J0 halves once, 4 to 2 (done 400,000, w =
 *   600,000; r = 10, s = 500, end 100 + 10 + 300 = 410), keeping 1
 *   loaned GPU; a second halving would free one GPU J2 does not take.
 *   J3 waits for the whole cluster, and with backfill 0 no grow runs
 *   while it waits: J0 keeps size 2 and ends at 410. */
Test(elastic_bounds, reclaim_halves_only_as_needed)
{
    ecase k;
    tt_job_result out[4];
    tt_metrics m;
    ecase_init(&k, 1, 1, 8);
    k.p.el_up = 2;
    k.p.backfill = 0;
    ejob(&k, 0, 1000, 1, 1);
    ejob(&k, 0, 1000, 4, 0);
    ejob(&k, 100, 100, 2, 0);
    ejob(&k, 100, 100, 8, 0);
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[2].start, 100);
    cr_expect_eq(out[0].end, 410);
    cr_expect_eq(out[3].start, 1000);
    cr_expect_eq(m.resizes, 1);
    cr_expect_eq(m.shrinks, 1);
}

/* ---- the grow phase's choice ---- */

/* Equal scores go to the lower index. 1x1x8, el_up 1: J0 and J1
 * (elastic, 2 GPUs, 1000 s) and J2 (2 GPUs, 1000 s) at 0 leave 2 GPUs
 * free, one grow's worth; both gain 500 (score 250,000): J0 grows (s =
 * 500, end 500). J1 grows when J0 ends: w = 500,000, gain 250 - 10; end
 * 500 + 10 + 250 = 760. */
Test(elastic_bounds, grow_ties_to_the_lower_index)
{
    ecase k;
    tt_job_result out[3];
    tt_metrics m;
    ecase_init(&k, 1, 1, 8);
    k.p.el_up = 1;
    ejob(&k, 0, 1000, 2, 1);
    ejob(&k, 0, 1000, 2, 1);
    ejob(&k, 0, 1000, 2, 0);
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[0].end, 500);
    cr_expect_eq(out[1].end, 760);
}

/* A job shrunk at t regrows at t paying nothing more (its resize is paid
 * once: c = 0, 10.4), and one whose changes cancel out has no resize
 * (10.3). 1x1x8, el_up 1: J0 (elastic, 1 GPU, 210 s), J1 (elastic, 2
 * GPUs, 400 s), J2 (2 GPUs, 2000 s) at 0; J3 (2 GPUs, 50 s) at 100.
 * - 0: 3 GPUs free; J0 grows first (score 105,000 against 100,000) to 2
 *   (s = 500, end 105), J1 to 4 (s = 500, end 200).
 * - 100: J3 reclaims: J0 halves (1 GPU freed, not enough), then J1 (2
 *   more); J3 takes 2, 1 is free. J0 has w = 210,000 - 200,000 = 10,000
 *   and gains 10,000 x 500 / 10^6 - 0 = 5 > 0 (it would be 5 - 10 had it
 *   to pay C): it grows back to 2 and, holding what it held, has no
 *   resize and ends at 105. J1 (w = 200,000) needs 2: it shrank, r = 10,
 *   s = 1000, end 310.
 * - 105: J0 ends; J1 grows: no work done yet (100 + 10 > 105), gain 100
 *   - 10; r = C + u = 10 + 5, end 105 + 15 + 100 = 220. */
Test(elastic_bounds, shrunk_job_regrows_unpaid)
{
    ecase k;
    tt_job_result out[4];
    tt_metrics m;
    ecase_init(&k, 1, 1, 8);
    k.p.el_up = 1;
    ejob(&k, 0, 210, 1, 1);
    ejob(&k, 0, 400, 2, 1);
    ejob(&k, 0, 2000, 2, 0);
    ejob(&k, 100, 50, 2, 0);
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[3].start, 100);
    cr_expect_eq(out[0].end, 105);
    cr_expect_eq(out[1].end, 220);
    cr_expect_eq(m.resizes, 2);
    cr_expect_eq(m.shrinks, 1);
    cr_expect_eq(m.grows, 1);
}

/* ---- speed: sp(k) between and beyond the listed powers (10.2) ---- */

/* bert's scale of SPEC 10.7 to 16 GPUs, 1000, 1975, 3797, 3797, 6403:
 * sp(3) = 1975 + (3797 - 1975) x 1 / 2 = 2886; sp(6) = 3797 + 0 = 3797;
 * sp(12) = 3797 + (6403 - 3797) x 4 / 8 = 5100; beyond 16 the last slope
 * goes on: sp(24) = 6403 + 2606 x 8 / 8 = 9009, sp(20) = 6403 + 2606 x 4
 * / 8 = 7706. A class without the column is linear; one of one value
 * too. */
Test(elastic_bounds, speed_between_powers)
{
    static const int64_t scale[2 * TTS_SCALE_MAX] = {1000, 1975, 3797, 3797, 6403, 0, 0, 0,
                                                     1000};
    static const int32_t nscale[2] = {5, 1};
    tts_trace tr;
    memset(&tr, 0, sizeof tr);
    tr.nscale = nscale;
    tr.scale = scale;
    static const int64_t k[] = {1, 2, 3, 4, 6, 8, 12, 16, 20, 24},
                         want[] = {1000, 1975, 2886, 3797, 3797, 3797, 5100, 6403, 7706, 9009};
    for (int x = 0; x < 10; x++) {
        cr_expect_eq(tts_sp(&tr, 0, k[x]), want[x], "sp(%lld) = %lld", (long long)k[x],
                     (long long)tts_sp(&tr, 0, k[x]));
        cr_expect_eq(tts_sp(&tr, 1, k[x]), 1000 * k[x]);
    }
    tr.nscale = NULL;
    cr_expect_eq(tts_sp(&tr, 0, 6), 6000);
}
