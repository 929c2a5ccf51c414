/* What the fuzzers share. Each fuzzer is one entry point per family of
 * parsers, fuzz_NAME(data, size) in tests/fuzz/fuzz_NAME.c: libFuzzer calls
 * it through main.c (make fuzz), and the unit tests replay the saved
 * inputs of tests/fuzz/corpus/NAME and tests/fuzz/crashers/NAME through
 * the same function (tests/unit/fuzz/test_fuzz_replay.c). Any return code
 * of the library is fine; a crash, a leak, undefined behaviour or a broken
 * promise of the library (FUZZ_CHECK) is a bug. */
#ifndef TT_FUZZ_H
#define TT_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "tt/error.h"
#include "tt/sim.h"

int fuzz_ingest(const uint8_t *data, size_t size);
int fuzz_params(const uint8_t *data, size_t size);
int fuzz_sweep(const uint8_t *data, size_t size);
int fuzz_tune(const uint8_t *data, size_t size);
int fuzz_tables(const uint8_t *data, size_t size);
int fuzz_h5(const uint8_t *data, size_t size);

/* Stops the process with the message on stderr: the input broke a promise
 * the library makes (abort, so libFuzzer keeps the input). */
void fuzz_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;
#define FUZZ_CHECK(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond))                                                                               \
            fuzz_fail(__VA_ARGS__);                                                                \
    } while (0)
/* A library call's return code against its context: 0, or a negative code
 * with a message. */
void fuzz_check_rc(tt_ctx *ctx, int rc, const char *what);

/* The input as a NUL-terminated string (cut at the first NUL byte); the
 * caller frees it. */
char *fuzz_text(const uint8_t *data, size_t size);
/* The next line of *cursor (which moves past it), "\n" replaced by NUL;
 * NULL at the end. */
char *fuzz_line(char **cursor);
/* Writes the bytes to the file name in a private folder made on first use
 * (removed at exit); its path, valid until the next call with that name. */
const char *fuzz_file(const char *name, const void *data, size_t size);
/* That private folder. */
const char *fuzz_dir(void);
/* The built-in model table, made once. */
const tt_models *fuzz_models(void);

typedef struct tt_table tt_table;
/* Reads every cell of a table that loaded, then keeps the rows equal to
 * its first cell (which must keep at least that row). Frees t. */
void fuzz_table_walk(tt_ctx *ctx, tt_table *t);
/* Reads the bytes as a table (TSV or HDF5) of part (a tt_table_part) and
 * walks it when it loads. */
void fuzz_table_read(tt_ctx *ctx, const void *data, size_t size, int part);

#endif
