/* What the table readers share (table.c: TSV, the table itself and the
 * trace views; table_h5.c: sweep and simulation results; table_tune.c:
 * tune files): the table's layout, and the HDF5 reading helpers. */
#ifndef TT_TABLE_IMPL_H
#define TT_TABLE_IMPL_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

#include "io/h5util.h"
#include "tt/error.h"
#include "tt/table.h"

typedef struct {
    char *name;
    char *units;
    double *v; /* numeric column, or NULL */
    char **s;  /* text column, or NULL */
} column;

struct tt_table {
    int64_t n;
    int ncols, cap;
    column *cols;
    char *source;
    int nattrs;
    char **attr; /* name, value, name, value, ... of the file's group */
};

#define NELEM(a) ((int)(sizeof a / sizeof a[0]))

/* ---- the table (table.c) ---- */

/* An empty table named source (copied); NULL when out of memory. */
tt_table *tt_tab_new(const char *source);
/* A new column of t->n rows, numeric or text (zeroed); NULL when out of
 * memory. Earlier columns may move: index t->cols after the last add. */
column *tt_tab_add_col(tt_table *t, const char *name, const char *units, int text);
/* Adds attribute name = value (both copied). 0, or -1 when out of memory. */
int tt_tab_add_attr(tt_table *t, const char *name, const char *value);

/* ---- HDF5 files (table_h5.c) ---- */

/* 1 when the len bytes of data begin with the HDF5 signature. */
int tt_tab_is_h5(const void *data, size_t len);
/* Part part of the HDF5 file path, or of len bytes of one in memory
 * (named name in messages), into t. 0 or a code of tt_table_load. */
int tt_tab_h5_load(tt_ctx *ctx, const char *path, tt_table_part part, tt_table *t);
int tt_tab_h5_read_mem(tt_ctx *ctx, const char *name, const void *data, size_t len,
                       tt_table_part part, tt_table *t);

/* The text attribute name of d into buf ("" when absent or not text). */
void tt_tab_attr_text(hid_t d, const char *name, char *buf, size_t size);
/* Reads the dataset name of grp (t->n values, or a scalar when t->n is 1)
 * as a column of t; where names grp in messages about the file path. */
int tt_tab_read_dataset(tt_ctx *ctx, const char *path, const char *where, hid_t grp,
                        const char *name, tt_table *t);
/* The datasets of g by index (H5_INDEX_CRT_ORDER fails where the group
 * does not keep it). 0 or -1. */
int tt_tab_list_datasets(hid_t g, H5_index_t index, h5u_names *l);
/* The number of values of dataset name of g, or -1. */
int64_t tt_tab_dataset_len(hid_t g, const char *name);
/* Every dataset of names[0..n) under group where that exists, in that
 * order, then (extras) every other dataset of the group in name order:
 * columns a newer writer adds are read, and one an older file lacks is
 * absent, not an error. The rows, on a table without columns yet: the
 * length of the first dataset read. */
int tt_tab_read_group(tt_ctx *ctx, const char *path, hid_t f, const char *where,
                      const char *const *names, int n, int extras, tt_table *t);
/* The text and integer attributes of group where into t->attr, integers
 * in decimal. */
int tt_tab_read_attrs(tt_ctx *ctx, const char *path, hid_t f, const char *where, tt_table *t);

/* ---- tune files (table_tune.c) ---- */

/* Part TT_TABLE_TUNE, TT_TABLE_TUNE_SPACE or TT_TABLE_TUNE_ROLLING of the tune file f (its
 * layout checked by the caller), named path in messages. */
int tt_tab_read_tune(tt_ctx *ctx, const char *path, hid_t f, tt_table_part part, tt_table *t);

#endif
