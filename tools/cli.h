/* cli.h: what every tool shares: messages as "prog: what: reason", exit
 * codes, a checked close of stdout, standard input read whole or kept as
 * a file, clean-up of temporary files on a signal, --version, the warning
 * on metrics that cannot be computed. Tool-side only: libcore never prints. */
#ifndef TT_CLI_H
#define TT_CLI_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tt/error.h"
#include "tt/sim.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* Sets the program name for messages. */
void cli_init(const char *prog);
const char *cli_prog(void);
/* "prog: message\n" on stderr; the copy of standard input (cli_input) is
 * named "<stdin>" in it. */
void cli_err(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* A note: as cli_err, unless cli_set_quiet(1) (a tool's -q) turned notes
 * off; errors are always said. */
void cli_note(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
void cli_set_quiet(int quiet);
/* The note that j's jobs whose model the table does not know drew their
 * class from the mix; nothing when none did. */
void cli_note_unknown_models(const tt_sim_jobs *j);
/* Prints the short usage to stderr with a hint, returns EXIT_USAGE. */
int cli_usage_error(const char *usage);
/* Flushes and closes stdout; on a write error reports it and returns
 * EXIT_FAIL, else status. Call as `return cli_close_stdout(status)`. */
int cli_close_stdout(int status);
/* A tool's last step: on a failure the context's message (when it has
 * one, before release frees it), release(state), then stdout closed as
 * cli_close_stdout does. */
int cli_finish(const tt_ctx *ctx, int status, void (*release)(void *), void *state);
/* What a signal that ends the process leaves behind otherwise: a child
 * to stop (sent SIGTERM when *child > 0), then files to remove, then a
 * folder (rmdir). NULL and empty strings are skipped. The strings and the
 * pid are read only when the signal comes, so they may be filled in after
 * registering, but they must stay valid while registered. */
typedef struct {
    const char *files[8];
    const char *dir;
    volatile pid_t *child;
} cli_cleanup;
/* On SIGINT, SIGTERM, SIGHUP or SIGPIPE, cleans up what c names, then
 * the process dies of that signal. NULL forgets it. */
void cli_cleanup_set(const cli_cleanup *c);
/* The same for one file (a temporary output): path is copied. NULL
 * forgets it. */
void cli_cleanup_on_signal(const char *path);
/* Standard input read to its end into a malloc'ed buffer (the caller's),
 * its size in *len; NULL with errno set on a read error or out of memory. */
char *cli_read_stdin(size_t *len);
/* -1 after saying so when more than one of the n arguments (NULL ones
 * skipped) is "-": standard input can be read once. Else 0. */
int cli_stdin_once(const char *const *args, int n);
/* The file to open for the input argument arg: arg itself, or for "-" a
 * private copy of standard input (tt/infile.h), removed at exit and on
 * SIGINT, SIGTERM, SIGHUP or SIGPIPE. NULL after saying why (the copy
 * cannot be made, or "-" comes a second time). */
const char *cli_input(const char *arg);
/* An HDF5 output: "-" writes it to standard output (tt/outfile.h), which
 * must then not be a terminal. -1 after saying so when out is "-" and
 * standard output is a terminal; else 0. */
int cli_output_h5(const char *out);
/* Sets *flag to 1 on SIGINT, SIGTERM or SIGHUP instead of dying, so a
 * long run can stop between configurations and leave no output; a second
 * signal kills at once (cleaning up as cli_cleanup_set). NULL restores
 * dying by the signal. */
void cli_stop_on_signal(atomic_int *flag);
/* The flag as a stop callback (tt_run_opts, tt_tune_opts): arg the
 * atomic_int given to cli_stop_on_signal; nonzero once a signal came. */
int cli_stop_requested(void *flag);
/* After a run stopped by that signal (TT_ESTOPPED): says so in one line,
 * clears ctx's message so that it is not printed after it, and returns the
 * exit status, 128 + the signal. */
int cli_stopped(tt_ctx *ctx);
/* Notes the sha256 of the jobs j taken from t in t's provenance, which a
 * result file then carries (trace_jobs_sha256, compared by tt-merge).
 * 0, or TT_ENOMEM with the message in ctx. */
int cli_note_jobs(tt_ctx *ctx, tt_trace *t, const tt_sim_jobs *j);
/* Prints "prog (tracetune VERSION)" and the GPU situation to stdout. */
int cli_version(void);
/* Splits "NAME=VALUE" (the argument of option opt) into name and returns
 * VALUE; NULL after printing "option -x: expected NAME=WHAT, got '...'". */
const char *cli_split_arg(const char *opt, const char *what, const char *arg, char *name,
                          size_t size);
/* Strict option values: print "prog: option -x: bad value 'v'" on error. */
int cli_i64(const char *opt, const char *s, int64_t min, int64_t *out);
/* n with a comma between groups of three digits ("4,096") into buf. */
void cli_count(int64_t n, char *buf, size_t size);
/* Seconds on a monotonic clock. */
double cli_now_s(void);
/* Progress of a run on stderr: on a terminal one line redrawn five times a
 * second; elsewhere (a log, a batch job) "prog: 12/40 configurations, 3.1
 * sims/s, 0 min 9 s left (ends about 2026-01-02 10:11)" at most once a
 * minute, or every TT_PROGRESS_S seconds (for tests). */
typedef struct {
    double start, last;
    double every; /* seconds between lines; < 0: a terminal */
    const char *what;
} cli_progress;
void cli_progress_init(cli_progress *p, const char *what);
/* A tt_run_opts progress callback; arg a cli_progress. */
void cli_progress_update(void *arg, int64_t done, int64_t count);
/* -j THREADS: 1 .. TT_RUN_MAX_THREADS (tt/run.h), else -1 after saying
 * why. */
int cli_threads_arg(const char *s, int64_t *out);
/* The threads to run for -j asked (0: not given; the library then takes
 * the usable CPUs) over count items of work (<= 0: not known): at most 4 x
 * the usable CPUs, since more only cost memory, and at most count; a note
 * on stderr says when asked was cut. */
int cli_threads(int64_t asked, int64_t count);

/* A note (cli_note) of how many jobs the n runs rejected (the same count,
 * or its range), and why a job is rejected; nothing when none was. */
void cli_note_rejected(const tt_metrics *m, int64_t n);
/* When metrics of the n rows m cannot be computed (left empty), a note
 * naming them, in how many rows, and why: every one of the jobs rejected,
 * or no GPU time used. */
void cli_warn_empty_metrics(const tt_metrics *m, int64_t n);
/* A parameter written as an option (--load 2000) that is none of the
 * tool's own long options (lopts, may be NULL): says how to write it (-p
 * load=2000) and returns 1, for a usage error; else 0. */
struct option;
int cli_param_as_option(int argc, char **argv, const struct option *lopts);
/* Warns on stderr of a value that parses but is implausible for its unit
 * (load=2: permille), for each item of a -p value or a -g list. */
void cli_warn_value(const tt_models *m, const char *name, const char *value);

#endif
