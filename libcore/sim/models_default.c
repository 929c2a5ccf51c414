/* data/models.tsv compiled in, so tt-sim runs without the data folder.
 * tests/unit/sim/test_models.c checks that it equals that file byte for
 * byte: edit both together. */
extern const char tt_models_default_tsv[];
const char tt_models_default_tsv[] =
    "name\tslow_l1\tslow_l2\tscale\tmem_mb\tsource\n"
    "bert\t1383\t1766\t1000,1975,3797,3797,6403,11959,21434\t420\tPollux OSDI'21 artifact "
    "simulator/traces/bert/placements.csv (T4 x4/node, placement 4 vs 1111); L1 derived; "
    "scale: Pollux OSDI'21 artifact scalability, see data/models.md; mem_mb: fp32 weights, "
    "see data/models.md\n"
    "ncf\t1321\t1643\t1000,1522,2500,2500,4339,7330,9939\t-1\tPollux OSDI'21 artifact "
    "traces/ncf/placements.csv, as redistributed in DeepBoot (T4 x4/node, 4 vs 1111); L1 "
    "derived; scale: Pollux OSDI'21 artifact scalability, see data/models.md\n"
    "yolov3\t1193\t1386\t1000,1885,3012,3012,5366,6748,14077\t-1\tPollux OSDI'21 artifact "
    "simulator/traces/yolov3/placements.csv (T4 x4/node, 4 vs 1111); L1 derived; scale: "
    "Pollux OSDI'21 artifact scalability, see data/models.md\n"
    "resnet18\t1095\t1190\t1000,1796,3597,4889,11578,12621,14272\t45\tPollux OSDI'21 "
    "artifact simulator/traces/cifar10/placements.csv (T4 x4/node, 4 vs 1111); L1 derived; "
    "scale: Pollux OSDI'21 artifact scalability, see data/models.md; mem_mb: fp32 weights, "
    "see data/models.md\n"
    "deepspeech2\t1035\t1070\t1000,1884,3566,4639,9566,14952,25482\t-1\tPollux OSDI'21 "
    "artifact traces/deepspeech2/placements.csv, as redistributed in DeepBoot (T4 x4/node, "
    "4 vs 1111); L1 derived; scale: Pollux OSDI'21 artifact scalability, see "
    "data/models.md\n"
    "resnet50\t1017\t1034\t1000,1986,3739,5197,11508,18469,34972\t98\tPollux OSDI'21 "
    "artifact simulator/traces/imagenet/placements.csv (T4 x4/node, 4 vs 1111); L1 derived; "
    "scale: Pollux OSDI'21 artifact scalability, see data/models.md; mem_mb: fp32 weights, "
    "see data/models.md\n";
