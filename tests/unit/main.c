/* The unit tests' main: Criterion's own, but every test without a
 * timeout of its own gets TT_UNIT_TIMEOUT seconds. Criterion's --timeout
 * only lowers the timeouts tests set themselves (a test with none runs
 * for ever, so a test that loops hangs the whole run), and a timeout on
 * each Test() is one a new test can forget: here no test goes without
 * one. --timeout N still lowers them all to N; --debug keeps Criterion's
 * rule, no timeout. The slowest test takes 3 s at -O2 and 5 s under make
 * sanitize. */
#include <criterion/criterion.h>
#include <criterion/internal/ordered-set.h>

#ifndef TT_UNIT_TIMEOUT
#define TT_UNIT_TIMEOUT 60.0
#endif

static void default_timeouts(struct criterion_test_set *tests, double seconds)
{
    for (struct criterion_ordered_set_node *sn = tests->suites->first; sn; sn = sn->next) {
        struct criterion_suite_set *suite = (struct criterion_suite_set *)(void *)(sn + 1);
        if (suite->suite.data && suite->suite.data->timeout > 0)
            continue; /* the suite's own */
        for (struct criterion_ordered_set_node *tn = suite->tests->first; tn; tn = tn->next) {
            struct criterion_test *t = (struct criterion_test *)(void *)(tn + 1);
            if (t->data->timeout <= 0)
                t->data->timeout = seconds;
        }
    }
}

int main(int argc, char *argv[])
{
    struct criterion_test_set *tests = criterion_initialize();
    int rc = 0;
    if (criterion_handle_args(argc, argv, true)) {
        if (criterion_options.debug == CR_DBG_NONE)
            default_timeouts(tests, TT_UNIT_TIMEOUT);
        rc = !criterion_run_all_tests(tests);
    }
    criterion_finalize(tests);
    return rc;
}
