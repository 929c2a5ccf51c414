/* data/models.tsv compiled in, so tt-sim runs without the data folder.
 * tests/unit/sim/test_models.c checks that it equals that file byte for
 * byte: edit both together. */
extern const char tt_models_default_tsv[];
const char tt_models_default_tsv[] =
    "name\tslow_l1\tslow_l2\tsource\n"
    "bert\t1383\t1766\tPollux OSDI'21 artifact simulator/traces/bert/placements.csv (T4 "
    "x4/node, placement 4 vs 1111); L1 derived\n"
    "ncf\t1321\t1643\tPollux OSDI'21 artifact traces/ncf/placements.csv, as redistributed in "
    "DeepBoot (T4 x4/node, 4 vs 1111); L1 derived\n"
    "yolov3\t1193\t1386\tPollux OSDI'21 artifact simulator/traces/yolov3/placements.csv (T4 "
    "x4/node, 4 vs 1111); L1 derived\n"
    "resnet18\t1095\t1190\tPollux OSDI'21 artifact simulator/traces/cifar10/placements.csv (T4 "
    "x4/node, 4 vs 1111); L1 derived\n"
    "deepspeech2\t1035\t1070\tPollux OSDI'21 artifact traces/deepspeech2/placements.csv, as "
    "redistributed in DeepBoot (T4 x4/node, 4 vs 1111); L1 derived\n"
    "resnet50\t1017\t1034\tPollux OSDI'21 artifact simulator/traces/imagenet/placements.csv "
    "(T4 x4/node, 4 vs 1111); L1 derived\n";
