/* sim_step.h: the simulation step (docs/model.md sections 2 to 7 and 11), written
 * once for the CPU backend (libcore/sim/sim.c) and the CUDA kernels.
 *
 * Common subset of C11, C++ and CUDA: static inline functions marked
 * HOST_DEVICE, fixed-width integers, plain structs, no allocation (the
 * caller sizes one buffer with tts_state_bytes and hands it to
 * tts_state_bind), integer arithmetic only.
 *
 * What each event costs, and why the structures are what they are:
 *  - Fresh waiting jobs (never started) sit in a tree of TTS_TREE_B
 *    children a node (a min over a short array per level, and few levels)
 *    indexed by their static queue rank (fifo and las: job index; sjf and
 *    srtf: (duration, index)). Each tree node keeps, per job class, the
 *    fewest GPUs any job below it asks for. The classes are what a job may do
 *    now: L0 only; L0/L1 (insensitive or sensitive); any level
 *    (insensitive or sensitive). Whether a job of k GPUs fits at a level
 *    is monotone in k, so the cluster state reduces to one threshold per
 *    class (the largest k that fits now) and a pass finds the next job
 *    that will start in O(log n), skipping every job that cannot.
 *  - Evicted jobs may take any level and are never sensitive: under fifo
 *    and sjf their key does not move, so they go back into the tree at
 *    their rank as "any level, insensitive"; under srtf and las it moves,
 *    so they wait in an array sorted by (GPUs, key, index): per distinct
 *    GPU count that fits, one binary search finds the next in order.
 *    dlas and gittins (SPEC 11) keep fresh jobs in the tree by index (they
 *    all wait in queue 0 from submit') and evicted ones in that array by
 *    (queue, Gittins index, time in the queue); a priority eviction may
 *    take a sensitive job, so the array has a segment per job class. ftf's
 *    keys are known only at arrival: all its waiting jobs are in the array.
 *  - Demotion and promotion times sit in a heap on (time, index); the GPUs
 *    priority preemption could take are kept per queue, so the pass skips
 *    a waiter no eviction could start.
 *  - Timer crossings happen in job index order (submit' + W0 is monotone),
 *    so two cursors replace a timer heap; with timers per class, two per
 *    class, each visiting only its class's jobs. Running jobs end through a
 *    4-ary heap on (end, index) that holds the ends itself.
 *  - Per node: free GPUs, its occupants (at most G), and what eviction
 *    could free there now (free + evictable GPUs; occupants that are not
 *    evictable). A running job becomes evictable min_run after its start;
 *    starts come in time order, so a list in start order ages them. Per
 *    rack: free GPUs and the largest L0 request it can take, with and
 *    without eviction, kept up to date by each node's change (counts of
 *    its nodes by free, and by free + evictable, GPUs), so a rack is never
 *    rescanned. The nodes are also kept in one bitset per free
 *    count, so best fit (fewest free >= k, lowest index) and most-free-
 *    first look at G + 1 words per 64 nodes rather than at every node.
 *  - A pass that finds nothing to start (most passes end so) costs one
 *    look at the tree's root.
 *  - Under fifo (no timer at 0) the jobs arriving at a step come after
 *    every job in the tree, so they wait outside it through the step's
 *    first pass, which looks at them once the tree has nothing left; only
 *    those that do not start then enter the tree. On a cluster that keeps
 *    up, most jobs start as they arrive and never touch the tree.
 */
#ifndef TT_SIM_STEP_H
#define TT_SIM_STEP_H

/* The step in twelve parts, each calling only those before it:
 *   sim_step_base.h     host/device marking, the structs, arithmetic,
 *                       the per-job rules
 *   sim_step_layout.h   the state's one buffer: its size, its layout
 *   sim_step_order.h    the queue orders' keys (SPEC 11's queues, Gittins
 *                       index, ftf key), the demotion/promotion heap
 *   sim_step_queue.h    the fresh-job tree, the sorted array of the other
 *                       waiting jobs, the running jobs' heap
 *   sim_step_cluster.h  nodes and racks, placement searches, preemption
 *   sim_step_mlfq.h     demotions, promotions, priority preemption
 *   sim_step_cache.h    GPU memory as a model cache: GPU identity,
 *                       loads, evictions (off without gpu_mem)
 *   sim_step_wf.h       workflows: readiness, rejection, homes, input
 *                       transfers, overhead kinds (off without tasks)
 *   sim_step_elastic.h  elastic jobs: sizes, speed, loans, reclaim (off
 *                       without el_up, el_down)
 *   sim_step_grow.h     the grow phase, resizes, resize_gap events
 *   sim_step_pass.h     starts and ends, the pass, timers and events
 *   sim_step_summary.h  the run's summary, its percentiles by selection */
#include "sim_step_layout.h"
#include "sim_step_order.h"
#include "sim_step_queue.h"
#include "sim_step_cluster.h"
#include "sim_step_mlfq.h"
#include "sim_step_cache.h"
#include "sim_step_wf.h"
#include "sim_step_elastic.h"
#include "sim_step_grow.h"
#include "sim_step_pass.h"
#include "sim_step_summary.h"

#endif
