/* The sweep on the GPU: one thread per configuration runs the step code of
 * sim_step.h (the CPU backend's code, compiled for the device) over its
 * own state; the trace sits in device memory once and every thread reads
 * it. Per batch:
 *   1. k_simulate: init, step to the end, tts_summarize into the spent
 *      state (each configuration's JCTs and queueing delays over its end
 *      and held arrays, as on the CPU);
 *   2. k_percentiles: one thread per configuration selects its nearest
 *      ranks in place (tts_percentiles, the CPU's code). A kernel of its
 *      own keeps the selection's registers out of k_simulate's.
 * A configuration costs its tts_state_bytes; the submit' arrays of the
 * batch's load values are shared. Batches are sized from cudaMemGetInfo
 * and halved when an allocation fails.
 * For measurements (bench/gpu-check): TT_GPU_TPB=N fixes the threads per
 * block of k_simulate (1..1024); TT_GPU_TIMING=1 times the kernel, the
 * percentiles and the copy of the results with CUDA events and adds their
 * seconds to the device text. Neither changes a result. */
#include "kernels.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <vector>

namespace {

const size_t ALIGN = 256;

size_t align_up(size_t x) { return (x + ALIGN - 1) / ALIGN * ALIGN; }

/* submit' under load into out: the array the batch's configurations of
 * that load share. */
__global__ void k_scale(const tts_trace *tr, int64_t load, int64_t *out)
{
    int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < tr->n; i += step)
        out[i] = tts_scaled_submit(tr, load, i);
}

/* Configuration i reads submit' from subs + sub_at[i] * n, or the trace's
 * submit column when sub_at[i] < 0 (load 1000). */
__global__ void k_simulate(const tts_trace *tr, tts_cluster c, const tts_config *cfg,
                           const int32_t *sub_at, const int64_t *subs, int32_t with,
                           int64_t count, char *states, size_t stride, tts_summary *sum)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    int64_t n = tr->n;
    tts_state S;
    tts_state_bind_tr(&S, states + i * stride, tr, &c, with);
    tts_init(&S, tr, &c, &cfg[i], sub_at[i] < 0 ? tr->submit : subs + sub_at[i] * n, NULL);
    while (tts_step(&S))
        ;
    tts_summarize(&S, &sum[i], S.tend, S.held);
    tts_wf_summarize(&S, &sum[i]);
}

/* Configuration i's JCTs and queueing delays are where k_simulate left
 * them, in its state's end and held arrays. */
__global__ void k_percentiles(int64_t n, tts_cluster c, int32_t with, int64_t count, char *states,
                              size_t stride, tts_summary *sum)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    tts_state S;
    tts_state_bind(&S, states + i * stride, n, &c, with);
    tts_percentiles(&sum[i], S.tend, S.held);
}

/* Device memory the sweep owns, freed on every path out. */
struct Mem {
    std::vector<void *> blocks;
    ~Mem()
    {
        for (void *p : blocks)
            cudaFree(p);
    }
    cudaError_t alloc(void **p, size_t bytes)
    {
        cudaError_t e = cudaMalloc(p, bytes ? bytes : 1);
        if (e == cudaSuccess)
            blocks.push_back(*p);
        return e;
    }
    void release(void *p)
    {
        for (size_t k = 0; k < blocks.size(); k++)
            if (blocks[k] == p) {
                cudaFree(p);
                blocks.erase(blocks.begin() + (long)k);
                return;
            }
    }
};

template <typename T> cudaError_t upload(Mem &m, T **dst, const T *src, int64_t count)
{
    *dst = NULL;
    if (!src)
        return cudaSuccess;
    cudaError_t e = m.alloc((void **)dst, (size_t)count * sizeof(T));
    if (e == cudaSuccess)
        e = cudaMemcpy(*dst, src, (size_t)count * sizeof(T), cudaMemcpyHostToDevice);
    return e;
}

/* The batch's buffers. */
struct Batch {
    char *states = NULL;
    tts_config *cfg = NULL;
    int32_t *sub_at = NULL;
    tts_summary *sum = NULL;
};

cudaError_t batch_alloc(Mem &m, Batch &b, int64_t batch, size_t stride)
{
    cudaError_t e;
    if ((e = m.alloc((void **)&b.states, (size_t)batch * stride)) != cudaSuccess ||
        (e = m.alloc((void **)&b.cfg, (size_t)batch * sizeof(tts_config))) != cudaSuccess ||
        (e = m.alloc((void **)&b.sub_at, (size_t)batch * sizeof(int32_t))) != cudaSuccess)
        return e;
    return m.alloc((void **)&b.sum, (size_t)batch * sizeof(tts_summary));
}

void batch_free(Mem &m, Batch &b)
{
    void *ps[] = {b.states, b.cfg, b.sub_at, b.sum};
    for (void *p : ps)
        if (p)
            m.release(p);
    b = Batch();
}

int cuda_fail(char *msg, size_t msgsize, const char *what, cudaError_t e)
{
    std::snprintf(msg, msgsize, "GPU: %s: %s", what, cudaGetErrorString(e));
    return TT_KERN_FAIL;
}

/* TT_GPU_TPB, or 0 when unset or not a number in 1..1024 */
int env_tpb()
{
    const char *v = std::getenv("TT_GPU_TPB");
    if (!v || !*v)
        return 0;
    char *end;
    long t = std::strtol(v, &end, 10);
    return *end == '\0' && t >= 1 && t <= 1024 ? (int)t : 0;
}

bool env_timing()
{
    const char *v = std::getenv("TT_GPU_TIMING");
    return v && std::strcmp(v, "1") == 0;
}

/* The three phases of a batch, timed by events when asked for. */
struct Timing {
    bool on = false;
    cudaEvent_t ev[4] = {};
    float ms[3] = {0, 0, 0};
    void init()
    {
        on = env_timing();
        for (int i = 0; on && i < 4; i++)
            if (cudaEventCreate(&ev[i]) != cudaSuccess)
                on = false;
    }
    void mark(int i)
    {
        if (on)
            cudaEventRecord(ev[i]);
    }
    void add()
    {
        if (!on || cudaEventSynchronize(ev[3]) != cudaSuccess)
            return;
        for (int i = 0; i < 3; i++) {
            float t = 0;
            if (cudaEventElapsedTime(&t, ev[i], ev[i + 1]) == cudaSuccess)
                ms[i] += t;
        }
    }
    ~Timing()
    {
        for (int i = 0; i < 4; i++)
            if (ev[i])
                cudaEventDestroy(ev[i]);
    }
};

/* Which of the dmax device arrays holds the submit' of which load: a
 * batch takes an array per load value among its configurations, keeps
 * those the last batch filled, and refills the others (fill lists them). */
struct Loads {
    static const int32_t FULL = -2;
    std::vector<int64_t> load; /* per array; 0: none (a load is >= 1) */
    std::vector<char> used;    /* taken by this batch */
    std::vector<int32_t> fill; /* to fill before this batch runs */
    explicit Loads(int64_t dmax) : load((size_t)dmax, 0), used((size_t)dmax, 0) {}
    void begin()
    {
        std::fill(used.begin(), used.end(), 0);
        fill.clear();
    }
    /* The array of load for this batch, or FULL when every array is taken. */
    int32_t take(int64_t l)
    {
        for (size_t k = 0; k < load.size(); k++)
            if (load[k] == l) {
                used[k] = 1;
                return (int32_t)k;
            }
        for (size_t k = 0; k < load.size(); k++)
            if (!used[k]) {
                used[k] = 1;
                load[k] = l;
                fill.push_back((int32_t)k);
                return (int32_t)k;
            }
        return FULL;
    }
};

int threads_per_block(int64_t count, int sms)
{
    if (int t = env_tpb())
        return t;
    /* few configurations: small blocks spread them over every SM */
    int64_t per_sm = (count + sms - 1) / (sms > 0 ? sms : 1);
    int64_t t = (per_sm + 31) / 32 * 32;
    return t < 32 ? 32 : t > 128 ? 128 : (int)t;
}

} // namespace

extern "C" int tt_kern_sweep(const tts_trace *tr, const tts_cluster *c, int64_t count,
                             const tt_kern_sweep_opts *o, tts_summary *out, char *used,
                             size_t used_size, char *msg, size_t msgsize)
{
    if (used_size)
        used[0] = '\0';
    int ndev = 0;
    if (tt_kern_device_count(&ndev, msg, msgsize) != TT_KERN_OK)
        return TT_KERN_NO_DEVICE;
    cudaError_t e;
    cudaDeviceProp prop;
    if ((e = cudaGetDeviceProperties(&prop, 0)) != cudaSuccess)
        return cuda_fail(msg, msgsize, "device properties", e);
    if ((e = cudaSetDevice(0)) != cudaSuccess)
        return cuda_fail(msg, msgsize, "set device", e);
    /* k_simulate keeps its tts_state on the stack: 600 bytes by ptxas -v
     * for sm_90 (the configuration is read through a pointer), within the
     * 1 KiB default; 2 KiB leaves room for other compilers and targets */
    if ((e = cudaDeviceSetLimit(cudaLimitStackSize, 2048)) != cudaSuccess)
        return cuda_fail(msg, msgsize, "stack size", e);
    if (count == 0)
        return TT_KERN_OK;

    /* the trace, once */
    Mem m;
    int64_t n = tr->n;
    tts_trace h = *tr;
    int64_t *d_submit, *d_duration, *d_l1, *d_l2;
    tts_gittins *d_git;
    int32_t *d_gpus, *d_cls, *d_rank_job, *d_job_rank;
    if ((e = upload(m, &d_submit, tr->submit, n)) != cudaSuccess ||
        (e = upload(m, &d_duration, tr->duration, n)) != cudaSuccess ||
        (e = upload(m, &d_gpus, tr->gpus, n)) != cudaSuccess ||
        (e = upload(m, &d_cls, tr->cls, n)) != cudaSuccess ||
        (e = upload(m, &d_rank_job, tr->rank_job, n)) != cudaSuccess ||
        (e = upload(m, &d_job_rank, tr->job_rank, n)) != cudaSuccess ||
        (e = upload(m, &d_l1, tr->slow_l1, tr->nclasses)) != cudaSuccess ||
        (e = upload(m, &d_l2, tr->slow_l2, tr->nclasses)) != cudaSuccess ||
        (e = upload(m, &d_git, tr->git, tr->ngit)) != cudaSuccess)
        return cuda_fail(msg, msgsize, "copying the trace to the device", e);
    /* elasticity's columns and the scale table, where present (NULL stays NULL) */
    int8_t *d_el;
    int32_t *d_gmin, *d_gmax, *d_nscale;
    int64_t *d_scale;
    if ((e = upload(m, &d_el, tr->elastic, n)) != cudaSuccess ||
        (e = upload(m, &d_gmin, tr->gmin, n)) != cudaSuccess ||
        (e = upload(m, &d_gmax, tr->gmax, n)) != cudaSuccess ||
        (e = upload(m, &d_nscale, tr->nscale, tr->nclasses)) != cudaSuccess ||
        (e = upload(m, &d_scale, tr->scale, (int64_t)TTS_SCALE_MAX * tr->nclasses)) != cudaSuccess)
        return cuda_fail(msg, msgsize, "copying the trace to the device", e);
    /* the workflows' arrays, where the trace has tasks */
    int32_t *d_tsk, *d_wfi, *d_deps, *d_ch, *d_wff, *d_out, *d_mdl, *d_msz;
    int64_t *d_doff, *d_choff;
    int64_t nd = tr->ntask ? tr->dep_off[n] : 0, nc = tr->ntask ? tr->ch_off[n] : 0;
    int64_t ncsr = tr->ntask ? n + 1 : 0;
    if ((e = upload(m, &d_tsk, tr->tsk, n)) != cudaSuccess ||
        (e = upload(m, &d_wfi, tr->wfi, n)) != cudaSuccess ||
        (e = upload(m, &d_deps, tr->deps, nd)) != cudaSuccess ||
        (e = upload(m, &d_ch, tr->ch, nc)) != cudaSuccess ||
        (e = upload(m, &d_wff, tr->wf_first, tr->nwf)) != cudaSuccess ||
        (e = upload(m, &d_doff, tr->dep_off, ncsr)) != cudaSuccess ||
        (e = upload(m, &d_choff, tr->ch_off, ncsr)) != cudaSuccess ||
        (e = upload(m, &d_out, tr->out_mb, n)) != cudaSuccess ||
        (e = upload(m, &d_mdl, tr->mdl, n)) != cudaSuccess ||
        (e = upload(m, &d_msz, tr->msz, (int64_t)tr->nmid + tr->nclasses)) != cudaSuccess)
        return cuda_fail(msg, msgsize, "copying the trace to the device", e);
    h.tsk = d_tsk;
    h.wfi = d_wfi;
    h.deps = d_deps;
    h.ch = d_ch;
    h.wf_first = d_wff;
    h.dep_off = d_doff;
    h.ch_off = d_choff;
    h.out_mb = d_out;
    h.mdl = d_mdl;
    h.msz = d_msz;
    h.elastic = d_el;
    h.gmin = d_gmin;
    h.gmax = d_gmax;
    h.nscale = d_nscale;
    h.scale = d_scale;
    h.submit = d_submit;
    h.duration = d_duration;
    h.gpus = d_gpus;
    h.cls = d_cls;
    h.rank_job = d_rank_job;
    h.job_rank = d_job_rank;
    h.slow_l1 = d_l1;
    h.slow_l2 = d_l2;
    h.git = d_git;
    tts_trace *d_tr;
    if ((e = upload(m, &d_tr, &h, 1)) != cudaSuccess)
        return cuda_fail(msg, msgsize, "copying the trace to the device", e);

    /* the batch: what memory holds, beside up to dmax submit' arrays (an
     * eighth of it at most, one at least) */
    size_t stride = align_up((size_t)tts_state_bytes_tr(tr, c, o->with));
    size_t per = stride + sizeof(tts_config) + sizeof(int32_t) + sizeof(tts_summary);
    size_t sub_bytes = (size_t)(n ? n : 1) * sizeof(int64_t);
    size_t freeb = 0, totalb = 0;
    if ((e = cudaMemGetInfo(&freeb, &totalb)) != cudaSuccess)
        return cuda_fail(msg, msgsize, "memory info", e);
    double budget = (double)freeb * 0.9;
    int64_t dmax = (int64_t)(budget / 8 / (double)sub_bytes);
    dmax = dmax < 1 ? 1 : dmax > count ? count : dmax;
    int64_t batch = (int64_t)((budget - (double)dmax * (double)sub_bytes) / (double)per);
    if (batch > count)
        batch = count;
    if (o->max_batch > 0 && batch > o->max_batch)
        batch = o->max_batch;
    if (dmax > batch)
        dmax = batch > 0 ? batch : 1;
    int64_t *d_subs = NULL;
    while (dmax > 0 && (e = m.alloc((void **)&d_subs, (size_t)dmax * sub_bytes)) != cudaSuccess) {
        if (e != cudaErrorMemoryAllocation)
            return cuda_fail(msg, msgsize, "allocating the submit times", e);
        cudaGetLastError();
        dmax /= 2;
    }
    Batch b;
    while (dmax > 0 && batch > 0 && (e = batch_alloc(m, b, batch, stride)) != cudaSuccess) {
        if (e != cudaErrorMemoryAllocation)
            return cuda_fail(msg, msgsize, "allocating a batch", e);
        cudaGetLastError(); /* clear it, then try half as many */
        batch_free(m, b);
        batch /= 2;
    }
    if (dmax == 0 || batch == 0) {
        std::snprintf(msg, msgsize,
                      "GPU out of memory: one configuration of %lld jobs needs %.1f MiB, "
                      "%.1f MiB free on %s",
                      (long long)n, (double)(per + sub_bytes) / 1048576.0,
                      (double)freeb / 1048576.0, prop.name);
        return TT_KERN_NOMEM;
    }
    if (used_size)
        std::snprintf(used, used_size, "%s, batches of %lld", prop.name, (long long)batch);

    std::vector<tts_config> hcfg((size_t)batch);
    std::vector<int32_t> hat((size_t)batch);
    Loads loads(dmax);
    Timing tm;
    tm.init();
    for (int64_t at = 0, nb; at < count; at += nb) {
        if (o->stop && o->stop(o->arg))
            return TT_KERN_STOPPED;
        /* the next configurations, up to a batch, while their loads find
         * an array (the one that finds none starts the next batch) */
        loads.begin();
        for (nb = 0; nb < batch && at + nb < count; nb++) {
            if (o->config(o->arg, at + nb, &hcfg[(size_t)nb])) {
                std::snprintf(msg, msgsize, "configuration %lld", (long long)(at + nb));
                return TT_KERN_CONFIG;
            }
            int64_t load = hcfg[(size_t)nb].load;
            if ((hat[(size_t)nb] = load == 1000 ? -1 : loads.take(load)) == Loads::FULL)
                break;
        }
        for (size_t d = 0; d < loads.fill.size(); d++) {
            int32_t k = loads.fill[d];
            k_scale<<<256, 256>>>(d_tr, loads.load[(size_t)k], d_subs + (int64_t)k * n);
        }
        if ((e = cudaGetLastError()) != cudaSuccess ||
            (e = cudaMemcpy(b.cfg, hcfg.data(), (size_t)nb * sizeof(tts_config),
                            cudaMemcpyHostToDevice)) != cudaSuccess ||
            (e = cudaMemcpy(b.sub_at, hat.data(), (size_t)nb * sizeof(int32_t),
                            cudaMemcpyHostToDevice)) != cudaSuccess)
            return cuda_fail(msg, msgsize, "copying configurations", e);
        int tpb = threads_per_block(nb, prop.multiProcessorCount);
        tm.mark(0);
        k_simulate<<<(unsigned)((nb + tpb - 1) / tpb), tpb>>>(
            d_tr, *c, b.cfg, b.sub_at, d_subs, o->with, nb, b.states, stride, b.sum);
        if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaDeviceSynchronize()) != cudaSuccess)
            return cuda_fail(msg, msgsize, "simulation kernel", e);
        tm.mark(1);
        k_percentiles<<<(unsigned)((nb + 255) / 256), 256>>>(n, *c, o->with, nb, b.states, stride,
                                                             b.sum);
        if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaDeviceSynchronize()) != cudaSuccess)
            return cuda_fail(msg, msgsize, "percentiles", e);
        tm.mark(2);
        if ((e = cudaMemcpy(out + at, b.sum, (size_t)nb * sizeof(tts_summary),
                            cudaMemcpyDeviceToHost)) != cudaSuccess)
            return cuda_fail(msg, msgsize, "copying the results", e);
        tm.mark(3);
        tm.add();
        if (o->progress)
            o->progress(o->arg, at + nb, count);
    }
    if (tm.on && used_size) {
        size_t len = std::strlen(used);
        std::snprintf(used + len, used_size - len,
                      "; kernel %.3f s, percentiles %.3f s, results %.3f s, %d threads/block",
                      tm.ms[0] / 1e3, tm.ms[1] / 1e3, tm.ms[2] / 1e3,
                      threads_per_block(batch, prop.multiProcessorCount));
    }
    return TT_KERN_OK;
}
