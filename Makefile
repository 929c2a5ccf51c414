# tracetune: one Makefile for the library, the CUDA kernels, the tools,
# the tests, the fuzzers and the benchmarks.
#
#   make                 build bin/tt-* (CUDA when nvcc is found)
#   make HAVE_CUDA=0     build without CUDA; HAVE_CUDA=1 fails if nvcc is missing
#   make test            unit tests (Criterion) and end-to-end tests of the tools
#   make check           fuzz + sanitize + slurm + test: what CI runs (ends on "N passed, M failed")
#   make slurm           the docs' Slurm recipe on a one-node Slurm (skipped without Slurm)
#   make sanitize        the same tests under AddressSanitizer + UBSan (in build-san/)
#   make mutants         the mutation pass: mutants of the code the tests must fail (outside CI)
#   make fuzz            short libFuzzer runs of every parser of user input (FUZZ_SECONDS=30 in all)
#   make fuzz-long       the same, FUZZ_LONG_SECONDS each (outside CI)
#   make bench           benchmarks, TSV on stdout
#   make bench-engine    one Philly configuration, this engine against v0.1.0's (bench/engine)
#   make bench-workflows what workflows and the model cache cost (bench/workflows)
#   make bench-data      bench/data/philly.bin for bench/gpu-check (run on a GPU machine)
#   make figures         every figure of docs/figures from its recorded command (docs/figures/figures.sh)
#   make figures-elastic docs/figures/philly-elastic-{jct,makespan}.png (SPEC 10.11's baselines)
#   make figures-workflows docs/figures/wf-servers.png (SPEC 12.11's baselines, servers needed)
#   make traces          check the public traces of data/traces.tsv, downloading those missing
#   make shared          build/libtracetune.so.VERSION
#   make install PREFIX=/usr/local   tools, libraries, headers, tracetune.pc, data
#   make uninstall PREFIX=/usr/local

PREFIX  ?= /usr/local
BUILD   ?= build
BIN     ?= bin
CC      ?= cc
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 \
           -Werror=implicit-function-declaration \
           -Wno-format-nonliteral
CPPFLAGS_ALL = -std=c11 -D_DEFAULT_SOURCE -Ilibcore/include -Ilibcore -Ikernels $(HDF5_CFLAGS) $(BLAS_CFLAGS)
# each object's header dependencies, written by the compiler (-MMD) and read
# back at the end of this file; -MP keeps a deleted header from breaking make
DEPFLAGS = -MMD -MP
# libcore and the kernels are compiled once, position-independent, and both
# libtracetune.a (linked by the tools) and libtracetune.so are made of those
# objects, so make install after make compiles nothing (nvcc included); no
# semantic interposition: calls within the library stay direct and may be
# inlined, as in a program; hidden: the shared library exports only what a
# public header (tt/*.h, between its visibility pragmas) declares
PIC := -fPIC -fno-semantic-interposition -fvisibility=hidden
SAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

ifeq ($(SAN),1)
CFLAGS += $(SAN_FLAGS) -DTTS_DEBUG
LDFLAGS += $(SAN_FLAGS)
endif

# ---- what this machine has ----
# (not asked when make is run only for goals that build nothing: make traces
# works before the libraries are installed)
NO_CONFIG_GOALS := traces
NO_CONFIG := $(if $(MAKECMDGOALS),$(if $(filter-out $(NO_CONFIG_GOALS),$(MAKECMDGOALS)),,1))
PKG_CONFIG ?= pkg-config
HDF5_PKG := $(shell $(PKG_CONFIG) --exists hdf5 2>/dev/null && echo hdf5)
ifeq ($(HDF5_PKG)$(NO_CONFIG),)
$(error [config] HDF5: not found (install libhdf5-dev; pkg-config hdf5 must answer))
endif
HDF5_CFLAGS := $(shell $(PKG_CONFIG) --cflags hdf5)
HDF5_LIBS   := $(shell $(PKG_CONFIG) --libs hdf5)
COMP_LIBS   := $(shell $(PKG_CONFIG) --libs zlib liblzma 2>/dev/null || echo -lz -llzma)
# OpenBLAS: the tuner's surrogate model on the CPU (cuBLAS on the GPU)
BLAS_PKG := $(shell $(PKG_CONFIG) --exists openblas 2>/dev/null && echo openblas)
ifeq ($(BLAS_PKG)$(NO_CONFIG),)
$(error [config] OpenBLAS: not found (install libopenblas-dev; pkg-config openblas must answer))
endif
BLAS_CFLAGS := $(shell $(PKG_CONFIG) --cflags openblas)
BLAS_LIBS   := $(shell $(PKG_CONFIG) --libs openblas)
CRITERION_LIBS := $(shell $(PKG_CONFIG) --libs criterion 2>/dev/null)
GNUPLOT := $(shell command -v gnuplot 2>/dev/null)

NVCC ?= $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
ifeq ($(HAVE_CUDA),)
HAVE_CUDA := $(if $(NVCC),1,0)
endif
ifeq ($(HAVE_CUDA),1)
ifeq ($(NVCC),)
$(error [config] HAVE_CUDA=1 but nvcc was not found (set NVCC=/path/to/nvcc))
endif
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(realpath $(NVCC)))
NVCCFLAGS ?= -O2 -std=c++17 -arch=sm_90 -Xcompiler -Wall,-Wextra
CUDA_LIBS := -L$(CUDA_HOME)/lib64 -L$(CUDA_HOME)/lib64/stubs -lcudart_static -lrt -ldl -lpthread -lstdc++
KERNEL_SRCS := $(wildcard kernels/*.cu)
KERNEL_OBJS := $(KERNEL_SRCS:kernels/%.cu=$(BUILD)/kernels/%.o)
else
# without CUDA, each kernels/X.cu has a kernels/X_none.c twin whose entry
# points say "not built in"
CUDA_LIBS :=
KERNEL_SRCS := $(wildcard kernels/*_none.c)
KERNEL_OBJS := $(KERNEL_SRCS:kernels/%.c=$(BUILD)/kernels/%.o)
endif


LIBS = $(HDF5_LIBS) $(COMP_LIBS) $(BLAS_LIBS) $(CUDA_LIBS) -lm -pthread
# The tools link HDF5's archive where it is installed (HDF5_STATIC=0: the
# shared library): libhdf5.so brings about 30 shared objects (curl, krb5,
# gnutls, ...) for drivers the tools never use, and loading them was most
# of a tool's start-up (docs/performance.md, "Start-up"). The archive needs
# szip (libaec's libsz) besides zlib; the shared library keeps the shared
# HDF5, a program that links it decides for itself.
HDF5_STATIC ?= 1
HDF5_ARCHIVE := $(if $(filter 1,$(HDF5_STATIC)),$(firstword $(wildcard $(addsuffix /libhdf5.a,\
    $(patsubst -L%,%,$(filter -L%,$(HDF5_LIBS))) $(shell $(PKG_CONFIG) --variable=libdir hdf5 2>/dev/null)))))
SZ_LIB := $(firstword $(wildcard $(addprefix /usr/lib/x86_64-linux-gnu/ /usr/lib64/ /usr/lib/ /usr/local/lib/,libsz.so libsz.a)))
TOOL_HDF5_LIBS := $(if $(and $(HDF5_ARCHIVE),$(SZ_LIB)),$(HDF5_ARCHIVE) -lsz,$(HDF5_LIBS))
TOOL_LIBS = $(TOOL_HDF5_LIBS) $(COMP_LIBS) $(BLAS_LIBS) $(CUDA_LIBS) -lm -pthread

ifeq ($(MAKELEVEL)$(NO_CONFIG),0)
$(info [config] HDF5: $(HDF5_CFLAGS) $(HDF5_LIBS); the tools link $(if $(filter-out $(HDF5_LIBS),$(TOOL_HDF5_LIBS)),$(TOOL_HDF5_LIBS) (static),the shared library))
$(info [config] CUDA: $(if $(filter 1,$(HAVE_CUDA)),nvcc $(NVCC) (static runtime),not built (HAVE_CUDA=0 or no nvcc): GPU entry points return "not built in"))
$(info [config] Criterion: $(if $(CRITERION_LIBS),found,not found (make test needs libcriterion-dev)))
$(info [config] gnuplot: $(if $(GNUPLOT),$(GNUPLOT),not found))
endif

# the flags every object is compiled with, kept in $(BUILD)/flags: objects
# depend on it, so objects built with other flags (OPT=, SAN=, a compiler,
# the position-independent ones) are built again rather than mixed
FLAGS_NOW := $(CC) $(CPPFLAGS_ALL) $(CFLAGS) $(PIC) $(WARN) | $(NVCC) $(NVCCFLAGS)
FLAGS_STAMP := $(BUILD)/flags
ifneq ($(FLAGS_NOW),$(shell cat $(FLAGS_STAMP) 2>/dev/null))
$(shell mkdir -p $(BUILD) && printf '%s\n' '$(FLAGS_NOW)' >$(FLAGS_STAMP))
endif

# ---- sources ----
# libcore is one folder per part (docs/architecture.md); every .c in them is
# built but the X_none.c stand-ins, which only bench/gpu-check links (in
# place of an X.c whose headers that machine lacks)
CORE_PARTS := base io trace ingest sim sweep tune plot
CORE_SRCS := $(filter-out %_none.c,$(foreach p,$(CORE_PARTS),$(wildcard libcore/$(p)/*.c)))
CORE_OBJS := $(CORE_SRCS:libcore/%.c=$(BUILD)/libcore/%.o)
LIBCORE   := $(BUILD)/libtracetune.a
CLI_OBJ   := $(BUILD)/tools/cli.o
TOOL_SRCS := $(wildcard tools/tt-*.c)
TOOLS     := $(TOOL_SRCS:tools/%.c=$(BIN)/%)
# tests/unit/main.c: Criterion's main with a timeout on every test
UNIT_SRCS := $(wildcard tests/unit/*/test_*.c) tests/unit/main.c
# the fuzzers' entry points, which the unit tests replay saved inputs through
FUZZ_SRCS := $(filter-out tests/fuzz/main.c,$(wildcard tests/fuzz/*.c))
# the reference simulator: test code, built apart from libcore on purpose
REFSIM_OBJS := $(patsubst tests/refsim/%.c,$(BUILD)/tests/refsim/%.o,$(wildcard tests/refsim/*.c))
UNIT_OBJS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%.o) $(REFSIM_OBJS) \
             $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%.o)
UNIT_BIN  := $(BUILD)/tests/unit
# the shared library (see "the library as a library" below) and the man
# pages, docs/man/NAME.SECTION.md written as roff
VERSION := $(shell sed -n 's/^\#define TT_VERSION "\(.*\)"$$/\1/p' libcore/include/tt/version.h)
SONAME  := libtracetune.so.$(firstword $(subst ., ,$(VERSION)))
LIBSO   := $(BUILD)/libtracetune.so.$(VERSION)
MAN_SRCS  := $(wildcard docs/man/*.md)
MAN_PAGES := $(MAN_SRCS:docs/man/%.md=$(BUILD)/man/%)
COMPLETION := $(BUILD)/completion/tracetune.bash
BENCH_SRCS := $(wildcard bench/*.c)
BENCH_BINS := $(BENCH_SRCS:bench/%.c=$(BUILD)/bench/%)

.PHONY: all test check unit e2e api slurm sanitize mutants fuzz fuzz-long bench bench-engine bench-workflows bench-data figures figures-elastic figures-workflows clean install \
        uninstall installcheck doccheck man completion shared example notebooks study traces FORCE
# keep object files that pattern chains build (tool objects), so a second make does nothing
.SECONDARY:
all: $(TOOLS)

$(BUILD)/libcore/%.o: libcore/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) $(PIC) $(WARN) $(DEPFLAGS) -c $< -o $@

$(BUILD)/kernels/%_none.o: kernels/%_none.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) $(PIC) $(WARN) $(DEPFLAGS) -c $< -o $@

$(BUILD)/kernels/%.o: kernels/%.cu $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -Xcompiler -fPIC,-fvisibility=hidden -Ikernels -MD -MP -c $< -o $@

$(LIBCORE): $(CORE_OBJS) $(KERNEL_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/tools/%.o: tools/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_DEFAULT_SOURCE -Ilibcore/include -Itools $(CFLAGS) $(WARN) $(DEPFLAGS) -c $< -o $@

$(BIN)/%: $(BUILD)/tools/%.o $(CLI_OBJ) $(LIBCORE)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(TOOL_LIBS) -o $@

# ---- tests ----
$(BUILD)/tests/%.o: tests/unit/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -Itests/unit $(CFLAGS) $(WARN) $(DEPFLAGS) -Wno-missing-prototypes -c $< -o $@

$(BUILD)/fuzz/%.o: tests/fuzz/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) $(WARN) $(DEPFLAGS) -c $< -o $@

$(BUILD)/tests/refsim/%.o: tests/refsim/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) $(WARN) $(DEPFLAGS) -c $< -o $@

$(UNIT_BIN): $(UNIT_OBJS) $(LIBCORE)
	@test -n "$(CRITERION_LIBS)" || { echo "make: Criterion not found: install libcriterion-dev" >&2; exit 1; }
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(CRITERION_LIBS) $(LIBS) -o $@

unit: $(UNIT_BIN) $(TOOLS)
	TT_SHARED=$(abspath ../shared) $(UNIT_BIN) --jobs 2

e2e: $(TOOLS)
	TT_BIN=$(abspath $(BIN)) TT_SHARED=$(abspath ../shared) tests/e2e/run.sh

# the public interface: headers that compile alone (C11, C++17), global
# symbols that all start with tt, a shared library that exports only what
# the headers declare; and the X_none.c stand-ins only
# bench/gpu-check links
api: $(LIBCORE) $(LIBSO)
	tests/api/stand_ins.sh
	tests/api/headers.sh
	tests/api/symbols.sh $(BUILD) $(LIBSO)

# make install into a scratch prefix, a program built against it with
# pkg-config, make uninstall (tests/install/run.sh)
installcheck: $(TOOLS) $(LIBCORE) $(LIBSO) $(MAN_PAGES) $(COMPLETION)
	MAKE="$(MAKE)" BUILD=$(BUILD) BIN=$(BIN) tests/install/run.sh

# the man pages against the tools' --help and output, rendered without
# warnings; the bash completion written from them, in an interactive bash;
# the figure of the docs that is cheap to draw, not stale
doccheck: $(TOOLS) $(MAN_PAGES) $(COMPLETION)
	TT_BIN=$(abspath $(BIN)) tests/docs/man.sh $(BUILD)/man
	TT_BIN=$(abspath $(BIN)) tests/docs/completion.sh $(COMPLETION)
	TT_BIN=$(abspath $(BIN)) TT_SHARED=$(abspath ../shared) tests/docs/figures.sh
	tests/docs/engine_parts.sh

# the study's notebooks: stored clean, and run headless with QUICK=1 (a
# subset of jobs, coarse grids) into build/notebooks; skipped, saying why,
# without Debian's nbclient, ipykernel and matplotlib (tests/notebooks/run.sh)
notebooks: $(TOOLS)
	TT_BIN=$(abspath $(BIN)) TT_SHARED=$(abspath ../shared) tests/notebooks/run.sh

# the full study: both notebooks executed into study/ beside report.md and
# its figures (PNG and PDF); docs/studies.md says how long it takes
# (Debian's python3 packages are those of /usr/bin/python3)
STUDY_NOTEBOOKS = notebooks/trace-tour.ipynb notebooks/network-sensitive-study.ipynb
NB_PYTHON ?= /usr/bin/python3
study: $(TOOLS)
	TT_BIN=$(abspath $(BIN)) TT_SHARED=$(abspath ../shared) $(NB_PYTHON) notebooks/execute.py study $(STUDY_NOTEBOOKS)

test: unit e2e api doccheck installcheck notebooks

# the Slurm recipe of the docs run for real on a one-node Slurm that the
# test starts and stops itself (tests/slurm/run.sh); skipped, saying why,
# where Slurm is not installed or does not start (TT_SLURM_REQUIRED=1: a
# failure instead)
slurm: $(TOOLS)
	TT_BIN=$(abspath $(BIN)) tests/slurm/run.sh

# what CI runs: a short fuzz run, the tests under sanitizers, the Slurm
# recipe, then the tests, each suite whole even when one before failed, and
# last one line "N passed, M failed" over all of them (tests/check.sh; the
# suites' output also in build/check/SUITE.log)
check:
	@MAKE="$(MAKE)" tests/check.sh

# the mutation pass (tests/mutants/run.sh): each mutant of
# tests/mutants/mutants.txt built and tested in a scratch copy, a TSV table
# of what the tests caught; about an hour, not in CI. MUTANTS="canon-*"
# picks some
mutants:
	tests/mutants/run.sh $(MUTANTS)

sanitize:
	$(MAKE) BUILD=build-san BIN=build-san/bin SAN=1 OPT=-O1 HAVE_CUDA=0 unit e2e api

# ---- fuzzing (clang's libFuzzer) ----
# One fuzzer per family of parsers: tests/fuzz/fuzz_NAME.c (what each reads
# is said at its top), seeds in tests/fuzz/corpus/NAME, a dictionary
# tests/fuzz/NAME.dict where one helps. The library is built once with
# coverage and sanitizers (build-fuzz/), each fuzzer links it.
#   make fuzz                 every fuzzer, FUZZ_SECONDS in all, split evenly
#   make fuzz-long            every fuzzer FUZZ_LONG_SECONDS each
#   make fuzz FUZZERS=h5      only those named
# What a fuzzer finds is written to tests/fuzz/crashers/NAME/, which the
# unit tests replay (tests/unit/fuzz): a crasher is kept there once fixed.
FUZZERS ?= ingest params sweep tune tables h5
FUZZ_SECONDS ?= 30
FUZZ_LONG_SECONDS ?= 3600
FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN)
FUZZ_OBJS := $(CORE_SRCS:libcore/%.c=build-fuzz/libcore/%.o) \
             $(patsubst kernels/%.c,build-fuzz/kernels/%.o,$(wildcard kernels/*_none.c)) \
             build-fuzz/tests/fuzz/fuzz.o

build-fuzz/libcore/%.o build-fuzz/kernels/%.o build-fuzz/tests/fuzz/%.o: FUZZ_COV := -fsanitize=fuzzer-no-link
build-fuzz/libcore/%.o: libcore/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS_ALL) $(FUZZ_CFLAGS) $(FUZZ_COV) $(DEPFLAGS) -c $< -o $@
build-fuzz/kernels/%.o: kernels/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS_ALL) $(FUZZ_CFLAGS) $(FUZZ_COV) $(DEPFLAGS) -c $< -o $@
build-fuzz/tests/fuzz/%.o: tests/fuzz/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS_ALL) $(FUZZ_CFLAGS) $(FUZZ_COV) $(WARN) $(DEPFLAGS) -c $< -o $@
build-fuzz/libfuzz.a: $(FUZZ_OBJS)
	@rm -f $@
	ar rcs $@ $^
# -rdynamic: fuzz_h5 tells HDF5's crashes from ours by the names on the stack
build-fuzz/fuzz_%: build-fuzz/tests/fuzz/fuzz_%.o tests/fuzz/main.c build-fuzz/libfuzz.a
	$(FUZZ_CC) $(CPPFLAGS_ALL) $(FUZZ_CFLAGS) -fsanitize=fuzzer -rdynamic -DFUZZ_ENTRY=fuzz_$* \
	    tests/fuzz/main.c $< build-fuzz/libfuzz.a $(HDF5_LIBS) $(COMP_LIBS) $(BLAS_LIBS) \
	    -lm -pthread -o $@

# A short run stops at its first finding. It starts from the seeds alone
# with a fixed seed, so CI and every machine try the same inputs in the
# same order (as many as their speed allows): a failure reproduces.
# A long run goes on past its findings (each lands in crashers/ all the
# same) and keeps what it learns in tests/fuzz/findings/NAME.
# tests/fuzz/run.sh runs one fuzzer: libFuzzer's output goes to
# build-fuzz/log/NAME.log, one line to the terminal; every fuzzer runs even
# when one before found something, then the run fails. Inputs of 4096 bytes
# at most, 65536 for h5 (HDF5 files need the room).
FUZZ_LONG_FLAGS := -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1
FUZZ_EACH = $(shell n=$$(( $(FUZZ_SECONDS) / $(words $(FUZZERS)) )); echo $$(( n > 0 ? n : 1 )))

fuzz: $(FUZZERS:%=build-fuzz/fuzz_%)
	@rm -rf build-fuzz/work
	@bad=0; for f in $(FUZZERS); do \
	    tests/fuzz/run.sh $$f $(FUZZ_EACH) $$( [ $$f = h5 ] && echo 65536 || echo 4096 ) \
	        build-fuzz/work/$$f -seed=1 || bad=1; \
	done; exit $$bad
fuzz-long: $(FUZZERS:%=build-fuzz/fuzz_%)
	@bad=0; for f in $(FUZZERS); do \
	    tests/fuzz/run.sh $$f $(FUZZ_LONG_SECONDS) $$( [ $$f = h5 ] && echo 65536 || echo 4096 ) \
	        tests/fuzz/findings/$$f $(FUZZ_LONG_FLAGS) || bad=1; \
	done; exit $$bad

# ---- the public traces ----
# The tests, benchmarks, notebooks and README read public traces in
# ../shared/traces, which is never copied here; data/traces.tsv names each
# file's source, bytes and sha256. make traces checks every file in
# TT_TRACES (default ../shared/traces where it exists, else data/traces/),
# downloads a missing one from its url where curl or wget reaches it, says
# per file what to do where not, and never overwrites a file that differs
# (scripts/fetch-traces). TRACE_FILES="PATH|FOLDER ..." checks only those.
traces:
	@TT_TRACES="$(TT_TRACES)" scripts/fetch-traces $(TRACE_FILES)

# ---- benchmarks ----
# bench/sim times the reference simulator too, as its baseline
$(BUILD)/bench/sim: bench/sim.c $(REFSIM_OBJS) $(LIBCORE)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) $(WARN) $^ $(LIBS) -o $@

$(BUILD)/bench/%: bench/%.c $(LIBCORE)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) $(WARN) $^ $(LIBS) -o $@

bench: $(TOOLS) $(BENCH_BINS)
	TT_BIN=$(abspath $(BIN)) TT_SHARED=$(abspath ../shared) BENCH_BIN=$(abspath $(BUILD)/bench) bench/run

# the engine against the release's, built once into bench/data/engine-v0.1.0
bench-engine: $(BIN)/tt-ingest $(BUILD)/bench/simtime
	TT_BIN=$(abspath $(BIN)) TT_SHARED=$(abspath ../shared) BENCH_BIN=$(abspath $(BUILD)/bench) bench/engine

# workflows and the model cache against the same trace without them
bench-workflows: $(BIN)/tt-gen $(BIN)/tt-cat $(BUILD)/bench/simtime $(BUILD)/bench/wf-bytes
	TT_BIN=$(abspath $(BIN)) BENCH_BIN=$(abspath $(BUILD)/bench) bench/workflows

# the Philly jobs as a plain binary file for bench/gpu-check, which runs
# where no HDF5 is (carry bench/data to the GPU machine)
bench-data: $(BIN)/tt-ingest $(BUILD)/bench/jobs-export
	@mkdir -p bench/data
	$(BIN)/tt-ingest -q -o bench/data/philly.h5 ../shared/traces/philly/pollux_philly.csv
	$(BUILD)/bench/jobs-export bench/data/philly.h5 bench/data/philly.bin
	rm -f bench/data/philly.h5

# ---- the bundled example ----
# 48 GPUs (3 racks of 4 nodes of 4) given 2.25 days of Philly-like
# submissions, about 8 times what they can run: how fast the backlog drains
# and how long jobs wait depends on the placement policy. The theta values
# each make a different set of model classes network-sensitive.
example: $(TOOLS)
	$(BIN)/tt-ingest -o example.h5 data/example.tsv
	$(BIN)/tt-stats example.h5
	@echo "# on 3x4x4: strict consolidation, no-wait, a delay timer with preemption"
	$(BIN)/tt-sim -c 3x4x4 example.h5
	$(BIN)/tt-sim -c 3x4x4 -p w0=0 -p w1=0 example.h5 | tail -n +2
	$(BIN)/tt-sim -c 3x4x4 -p w0=3600 -p w1=0 -p theta=1200 example.h5 | tail -n +2
	@echo "# w0 x theta on 3x4x4 (w1=0): figures example-surface.png and example-pareto.png"
	$(BIN)/tt-sweep -c 3x4x4 -p w1=0 -g w0=0,60,300,600,1800,3600,14400,inf \
	    -g theta=1050,1100,1200,1500,1700,inf -o example-sweep.h5 example.h5 >/dev/null
	$(BIN)/tt-plot surface --facet makespan -o example-surface.png example-sweep.h5
	$(BIN)/tt-plot pareto -o example-pareto.png example-sweep.h5

# ---- the figures of docs/figures, each from its recorded command ----
# (docs/figures/figures.sh: the Philly surface and Pareto front, the queue
# disciplines' CDFs, SPEC 10.11's elastic baselines, SPEC 12.11's servers,
# the study's CDF, which runs make study: minutes); tests/docs/figures.sh
# says when a committed one is stale
figures: $(TOOLS)
	TT_BIN=$(abspath $(BIN)) TT_SHARED=$(abspath ../shared) docs/figures/figures.sh docs/figures \
	    $$(docs/figures/figures.sh --list | cut -d' ' -f1)
figures-elastic: $(TOOLS)
	TT_BIN=$(abspath $(BIN)) TT_SHARED=$(abspath ../shared) docs/figures/figures.sh docs/figures philly-elastic-jct
figures-workflows: $(TOOLS)
	TT_BIN=$(abspath $(BIN)) TT_SHARED=$(abspath ../shared) docs/figures/figures.sh docs/figures wf-servers

# ---- the library as a library: shared, pkg-config, install ----
# libtracetune.so.VERSION (soname libtracetune.so.MAJOR) from the objects
# of libtracetune.a (position-independent: PIC above)
PIC_OBJS := $(CORE_OBJS) $(KERNEL_OBJS)
# what a program that links the library needs besides it: the modules
# pkg-config knows, and the rest as flags
PC_REQUIRES := hdf5 openblas $(shell $(PKG_CONFIG) --exists zlib liblzma 2>/dev/null && echo zlib liblzma)
PC_LIBS := $(if $(filter zlib,$(PC_REQUIRES)),,-lz -llzma) $(CUDA_LIBS) -lm -pthread

$(LIBSO): $(PIC_OBJS) libcore/libtracetune.map
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=libcore/libtracetune.map $(LDFLAGS) \
	    $(PIC_OBJS) $(LIBS) -o $@
# PREFIX is written into the file: it changes with every install
$(BUILD)/tracetune.pc: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
	    'Name: tracetune' \
	    'Description: GPU-cluster job traces: ingest, simulate, sweep and tune scheduler configurations' \
	    'Version: $(VERSION)' 'Requires.private: $(strip $(PC_REQUIRES))' \
	    'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -ltracetune' \
	    'Libs.private: $(strip $(PC_LIBS))' >$@
FORCE:
shared: $(LIBSO)

# ---- man pages: docs/man/NAME.SECTION.md, the reference, written as roff ----
PYTHON ?= python3
$(BUILD)/man/%: docs/man/%.md docs/man/md2man.py libcore/include/tt/version.h
	@mkdir -p $(dir $@)
	$(PYTHON) docs/man/md2man.py $< $(VERSION) >$@.tmp && mv $@.tmp $@
man: $(MAN_PAGES)
# the bash completion, from the same sources
$(COMPLETION): docs/man/completion.py $(MAN_SRCS)
	@mkdir -p $(dir $@)
	$(PYTHON) docs/man/completion.py docs/man >$@.tmp && mv $@.tmp $@
completion: $(COMPLETION)

# make install PREFIX=... [DESTDIR=...]; make uninstall with the same
# removes exactly what it installed
INSTALLED_BINS := $(TOOLS:$(BIN)/%=$(PREFIX)/bin/%)
INSTALLED_HDRS := $(patsubst libcore/include/%,$(PREFIX)/include/%,$(wildcard libcore/include/tt/*.h))
INSTALLED_LIBS := $(PREFIX)/lib/libtracetune.a $(PREFIX)/lib/libtracetune.so.$(VERSION) \
                  $(PREFIX)/lib/$(SONAME) $(PREFIX)/lib/libtracetune.so \
                  $(PREFIX)/lib/pkgconfig/tracetune.pc
# data/traces/, where make traces downloads the public traces, is not installed;
# data/gittins/ (a distribution, its source and licence) goes to its own folder
DATA_FILES     := $(filter-out data/traces data/gittins,$(wildcard data/*))
GITTINS_FILES  := $(wildcard data/gittins/*)
INSTALLED_DATA := $(patsubst data/%,$(PREFIX)/share/tracetune/%,$(DATA_FILES) $(GITTINS_FILES))
MAN_SECTIONS   := $(sort $(subst .,,$(suffix $(MAN_PAGES))))
INSTALLED_MAN  := $(foreach p,$(MAN_PAGES),$(PREFIX)/share/man/man$(subst .,,$(suffix $(p)))/$(notdir $(p)))
# bash-completion loads a command's completion from a file of its name:
# one file, and a link for each tool
COMPDIR := $(PREFIX)/share/bash-completion/completions
INSTALLED_COMP := $(COMPDIR)/tracetune $(TOOLS:$(BIN)/%=$(COMPDIR)/%)
install: $(TOOLS) $(LIBCORE) $(LIBSO) $(BUILD)/tracetune.pc $(MAN_PAGES) $(COMPLETION)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	    $(DESTDIR)$(PREFIX)/include/tt $(DESTDIR)$(PREFIX)/share/tracetune \
	    $(MAN_SECTIONS:%=$(DESTDIR)$(PREFIX)/share/man/man%) $(DESTDIR)$(COMPDIR)
	install -m 644 $(COMPLETION) $(DESTDIR)$(COMPDIR)/tracetune
	for t in $(notdir $(TOOLS)); do ln -sf tracetune $(DESTDIR)$(COMPDIR)/$$t; done
	for p in $(MAN_PAGES); do install -m 644 $$p $(DESTDIR)$(PREFIX)/share/man/man$${p##*.}; done
	install -m 755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(LIBCORE) $(DESTDIR)$(PREFIX)/lib
	install -m 755 $(LIBSO) $(DESTDIR)$(PREFIX)/lib
	ln -sf libtracetune.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libtracetune.so
	install -m 644 $(BUILD)/tracetune.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 libcore/include/tt/*.h $(DESTDIR)$(PREFIX)/include/tt
	install -m 644 $(DATA_FILES) $(DESTDIR)$(PREFIX)/share/tracetune
	install -d $(DESTDIR)$(PREFIX)/share/tracetune/gittins
	install -m 644 $(GITTINS_FILES) $(DESTDIR)$(PREFIX)/share/tracetune/gittins
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED_BINS) $(INSTALLED_HDRS) $(INSTALLED_LIBS) $(INSTALLED_DATA) \
	    $(INSTALLED_MAN) $(INSTALLED_COMP))
	-rmdir $(DESTDIR)$(PREFIX)/include/tt $(DESTDIR)$(PREFIX)/share/tracetune/gittins \
	    $(DESTDIR)$(PREFIX)/share/tracetune 2>/dev/null

clean:
	rm -rf build build-san build-fuzz bin
	rm -f example.h5 example-sweep.h5 example-surface.png example-pareto.png

-include $(wildcard $(BUILD)/*/*.d $(BUILD)/*/*/*.d $(BUILD)/*/*/*/*.d)
-include $(wildcard build-fuzz/*/*/*.d build-fuzz/*/*/*/*.d)
