/* The small HDF5 helpers every file layout shares (traces, simulation
 * results, sweeps, tunes). Each returns 0 or -1; the caller turns -1 into
 * a message naming its file. */
#ifndef TT_H5UTIL_H
#define TT_H5UTIL_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

#include "tt/error.h"

#define H5U_CHUNK_ROWS 65536
#define H5U_LEVEL 1 /* deflate level */

/* The HDF5 library prints its own error stack by default; a library must
 * not print, so callers switch it off before any HDF5 call. */
void tt_h5u_quiet(void);
/* Variable-length UTF-8 (so h5py gives str rather than bytes); close it. */
hid_t tt_h5u_vlen_utf8(void);
int tt_h5u_attr_str(hid_t obj, const char *name, const char *value);
int tt_h5u_attr_i64(hid_t obj, const char *name, int64_t value);
int tt_h5u_attr_f64(hid_t obj, const char *name, double value);
/* A growing list of names (of datasets, columns); zero-initialise. */
typedef struct {
    char **v;
    int n, cap;
} h5u_names;
/* Appends prefix followed by name. 0 or -1 (out of memory). */
int tt_h5u_names_add(h5u_names *l, const char *prefix, const char *name);
/* Frees the names and the array; the list is empty after. */
void tt_h5u_names_free(h5u_names *l);
/* Reads an integer attribute as int64; -1 when absent or not readable so
 * (the HDF5 error stack must be quiet: it may be absent on purpose). */
int tt_h5u_attr_read_i64(hid_t obj, const char *name, int64_t *out);
/* The attribute name of obj, opened, when it holds one value of class cls
 * (the caller closes it: H5Aclose); -1 when absent or otherwise. */
hid_t tt_h5u_attr_open_scalar(hid_t obj, const char *name, H5T_class_t cls);
/* A text attribute (one string, variable or fixed length) as a malloc'd
 * copy, the caller's; NULL when absent, not one string, or out of memory. */
char *tt_h5u_attr_read_str(hid_t obj, const char *name);
/* What a tracetune HDF5 file holds, by its top groups, for messages that
 * say what a file given in the wrong place is: "it is a tune file", "it is
 * a trace", "it is a sweep file", "it is a simulation result"; NULL when
 * none of them. */
const char *tt_h5u_file_kind(hid_t f);
/* A 1-D column of n values, chunked (H5U_CHUNK_ROWS) with shuffle + deflate
 * level 1 (the columns are small integers that repeat a lot, and level 1
 * keeps writing near I/O speed); units may be NULL; a "missing" attribute
 * when has_missing. */
int tt_h5u_write_col(hid_t grp, const char *name, hid_t filetype, hid_t memtype, int64_t n,
                  const void *data, const char *units, int64_t missing, int has_missing);
/* A 1-D column of n strings (none NULL) as fixed-length UTF-8, as long as
 * the longest and NUL-padded, chunked and filtered as tt_h5u_write_col:
 * variable-length strings live in HDF5's global heap, where no filter
 * reaches (5M job names took 240 MB). Written a chunk at a time. */
int tt_h5u_write_strs(hid_t grp, const char *name, int64_t n, const char *const *s);
/* Calls each(arg, i, s) for every string of the 1-D string dataset d in
 * order, fixed or variable length, reading a block of rows at a time; s
 * is valid during the call. 0, -1 when d is not such a dataset or HDF5
 * failed or memory ran out, or each's first non-zero return. */
int tt_h5u_read_strs(hid_t d, int (*each)(void *arg, int64_t i, const char *s), void *arg);
/* A scalar dataset of one value; units may be NULL. */
int tt_h5u_scalar(hid_t grp, const char *name, hid_t filetype, hid_t memtype, const void *v,
               const char *units);
int tt_h5u_scalar_str(hid_t grp, const char *name, const char *value);
hid_t tt_h5u_group(hid_t parent, const char *name);

/* 1 when data starts with the HDF5 signature, or with a user block of
 * H5U_USERBLOCK bytes (a seal) and then the signature. */
int tt_h5u_is_image(const void *data, size_t len);

/* ---- damaged files (h5vet.c) ---- */

/* Every file tt_h5u_save writes starts with a user block of this many
 * bytes, which HDF5 skips: the seal, "tracetune sha256 of bytes 512 to
 * the end: HEX\n" and NULs. */
#define H5U_USERBLOCK 512
/* Writes the seal of the len bytes of an HDF5 image built with that user
 * block into its first H5U_USERBLOCK bytes. */
void tt_h5u_seal(void *image, size_t len);
/* Runs fn(arg) in a child process (fork), with a time limit (5 s and
 * 1 s a MiB of size; TT_H5_CHECK_S sets the 5): 0 when the child ended by
 * itself (fn returned), whatever fn found; else TT_EFORMAT "WHAT: damaged
 * HDF5 file (HDF5 crashed reading it)" (a signal, or a sanitizer's exit)
 * or "(HDF5 did not finish reading it in 5 s)", what naming the file as the caller's messages do. fn
 * must make the HDF5 calls the caller makes next, on the same bytes: HDF5
 * then does in the caller what it did in the child, so it cannot crash or
 * hang there. Not for a process holding HDF5 ids open in other threads. */
int tt_h5u_rehearse(tt_ctx *ctx, const char *what, size_t size, void (*fn)(void *arg),
                    void *arg);
/* 1 when the file carries a seal that holds, else 0. */
int tt_h5u_sealed(const char *path);
/* The file's size in bytes, 0 when it cannot be told. */
size_t tt_h5u_file_size(const char *path);
/* Builds the file fill(f, arg) fills in memory, as tt_h5u_save does, and
 * drops it (a rehearsal of a writer's reads). 0 or -1. */
int tt_h5u_build(int (*fill)(hid_t f, void *arg), void *arg);
/* Before a reader's first HDF5 call on a file (path) or an image: 0 when
 * it carries a seal that holds (nothing else is done), else
 * tt_h5u_rehearse. A file that cannot be opened gives 0: the reader says
 * why. */
int tt_h5u_check_file(tt_ctx *ctx, const char *what, const char *path, void (*fn)(void *arg),
                      void *arg);
int tt_h5u_check_image(tt_ctx *ctx, const char *what, const void *image, size_t len,
                       void (*fn)(void *arg), void *arg);
/* Opens len bytes of HDF5 in memory read-only (no copy kept beyond the
 * call: readers of a file from standard input, tests, fuzzing); close with
 * H5Fclose. A negative id when it is not one. */
hid_t tt_h5u_open_image(const void *data, size_t len);

/* Writes an HDF5 file whole or not at all: fill(f, arg) fills the file f,
 * built in memory, whose bytes are then written beside path and renamed
 * over it (tt/outfile.h). Quiets HDF5 first. 0; TT_EINVAL (a name too
 * long) or TT_EIO, with a message naming path. */
int tt_h5u_save(tt_ctx *ctx, const char *path, int (*fill)(hid_t f, void *arg), void *arg);

#endif
