/* Clusters: "RxNxG" and cluster files, their bounds and messages
 * (libcore/sim/cluster.c). */
#include "confutil.h"
#include "tt/sim.h"

static void expect_cluster(const char *spec, int32_t r, int32_t n, int32_t g)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_cluster c = {0, 0, 0};
    cr_expect_eq(tt_cluster_parse(ctx, spec, &c), 0, "'%s': %s", spec, tt_errmsg(ctx));
    cr_expect(c.racks == r && c.nodes_per_rack == n && c.gpus_per_node == g,
              "'%s' gave %dx%dx%d", spec, c.racks, c.nodes_per_rack, c.gpus_per_node);
    tt_ctx_free(ctx);
}

static void expect_cluster_error(const char *spec, int code, const char *msg)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_cluster c = {7, 7, 7};
    cr_expect_eq(tt_cluster_parse(ctx, spec, &c), code, "'%s' gave %d: %s", spec,
                 tt_errcode(ctx), tt_errmsg(ctx));
    cr_expect(strstr(tt_errmsg(ctx), msg) != NULL, "'%s': message '%s' lacks '%s'", spec,
              tt_errmsg(ctx), msg);
    cr_expect(c.racks == 7 && c.nodes_per_rack == 7 && c.gpus_per_node == 7,
              "'%s': the cluster changed on error", spec);
    tt_ctx_free(ctx);
}

Test(cluster, text)
{
    expect_cluster("4x32x8", 4, 32, 8);
    expect_cluster("1x1x4", 1, 1, 4);
    expect_cluster("65536x1x1", 65536, 1, 1); /* exactly TT_MAX_CLUSTER_GPUS */
    expect_cluster("1x1x65536", 1, 1, 65536);
    char buf[64];
    tt_cluster c = {4, 32, 8};
    tt_cluster_format(&c, buf, sizeof buf);
    cr_expect_str_eq(buf, "4x32x8");

    expect_cluster_error("1x0x8", TT_EINVAL,
                         "cluster '1x0x8': field 'nodes_per_rack': expected an integer 1 .. "
                         "2147483647, got '0'");
    expect_cluster_error("4x32", TT_EINVAL, "cluster '4x32': expected RxNxG");
    expect_cluster_error("4x32x8x1", TT_EINVAL, "expected RxNxG");
    expect_cluster_error("4xx8", TT_EINVAL, "field 'nodes_per_rack'");
    expect_cluster_error("-1x2x2", TT_EINVAL, "field 'racks'");
    expect_cluster_error("0x2x2", TT_EINVAL, "field 'racks'");
    expect_cluster_error("4x32x+", TT_EINVAL, "field 'gpus_per_node'");
    /* overflow of one number, and of the product */
    expect_cluster_error("99999999999x1x1", TT_EINVAL, "field 'racks'");
    expect_cluster_error("1x1x2147483648", TT_EINVAL, "field 'gpus_per_node'");
    expect_cluster_error("65537x1x1", TT_EINVAL, "more than 65536 GPUs in all");
    expect_cluster_error("2147483647x2147483647x2147483647", TT_EINVAL,
                         "more than 65536 GPUs in all");
    expect_cluster_error("300x300x8", TT_EINVAL, "more than 65536 GPUs");
    expect_cluster_error("1x00000000000000000000000000000000000001x1", TT_EINVAL,
                         "field 'nodes_per_rack': expected an integer 1 .. 2147483647, got "
                         "'00000000000000000000...'");
    /* not of the RxNxG shape: a file name */
    expect_cluster_error("no_such_cluster.tsv", TT_EINVAL,
                         "cluster 'no_such_cluster.tsv': not RxNxG (racks x nodes per rack x "
                         "GPUs per node, e.g. 4x32x8), and no cluster file of that name exists");
    /* mistyped clusters are not taken for files without saying what RxNxG is */
    expect_cluster_error("4X32X8", TT_EINVAL, "cluster '4X32X8': not RxNxG");
    expect_cluster_error(" 4x32x8", TT_EINVAL, "cluster ' 4x32x8': not RxNxG");
    expect_cluster_error("4x32x8junk", TT_EINVAL, "no cluster file of that name exists");
}

Test(cluster, file)
{
    const char *p = tmp_file("c.tsv", "racks\tnodes_per_rack\tgpus_per_node\n2\t16\t8\n");
    expect_cluster(p, 2, 16, 8);
    rm_tmp(p);
    /* columns by name, in any order; blank lines and CRLF are fine */
    p = tmp_file("c.tsv", "gpus_per_node\tracks\tnodes_per_rack\r\n\r\n4\t3\t2\r\n\n");
    expect_cluster(p, 3, 2, 4);
    rm_tmp(p);

    struct {
        const char *text, *msg;
    } bad[] = {
        {"racks\tnodes\tgpus_per_node\n1\t2\t3\n",
         "c.tsv:1: field 'nodes_per_rack': no such column in the header"},
        {"racks\tnodes_per_rack\tgpus_per_node\n1\tx\t8\n",
         "c.tsv:2: field 'nodes_per_rack': expected an integer >= 1, got 'x'"},
        {"racks\tnodes_per_rack\tgpus_per_node\n1\t2\t0\n",
         "c.tsv:2: field 'gpus_per_node': expected an integer >= 1, got '0'"},
        {"racks\tnodes_per_rack\tgpus_per_node\n1\t2\n", "c.tsv:2: expected 3 fields, got 2"},
        {"racks\tnodes_per_rack\tgpus_per_node\n1\t2\t8\n1\t2\t8\n",
         "c.tsv:3: a second row: a cluster file has one row"},
        {"racks\tnodes_per_rack\tgpus_per_node\n", "c.tsv:1: no data row"},
        {"", "c.tsv:1: empty: no header line"},
        {"racks\tnodes_per_rack\tgpus_per_node\n1000\t1000\t1\n",
         "c.tsv:2: more than 65536 GPUs in all"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        p = tmp_file("c.tsv", bad[i].text);
        expect_cluster_error(p, TT_EPARSE, bad[i].msg);
        rm_tmp(p);
    }
}
