/* HDF5 writing helpers shared by the file layouts (internal/h5util.h);
 * the seal and the check of a file before it is read are h5vet.c's. */
#include "io/h5util.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "io/layout.h"
#include "tt/outfile.h"

/* The in-memory file grows by this much at a time. */
#define IMAGE_STEP (4 << 20)

void tt_h5u_quiet(void) { H5Eset_auto2(H5E_DEFAULT, NULL, NULL); }

hid_t tt_h5u_vlen_utf8(void)
{
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    return type;
}

int tt_h5u_attr_str(hid_t obj, const char *name, const char *value)
{
    hid_t type = tt_h5u_vlen_utf8();
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = a < 0 ? -1 : H5Awrite(a, type, &value);
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(space);
    H5Tclose(type);
    return rc < 0 ? -1 : 0;
}

/* A scalar attribute of file type ftype from *value in memory type mtype. */
static int attr_scalar(hid_t obj, const char *name, hid_t ftype, hid_t mtype, const void *value)
{
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(obj, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = a < 0 ? -1 : H5Awrite(a, mtype, value);
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(space);
    return rc < 0 ? -1 : 0;
}

int tt_h5u_attr_i64(hid_t obj, const char *name, int64_t value)
{
    return attr_scalar(obj, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value);
}

int tt_h5u_attr_f64(hid_t obj, const char *name, double value)
{
    return attr_scalar(obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

int tt_h5u_names_add(h5u_names *l, const char *prefix, const char *name)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 32;
        char **v = (char **)realloc(l->v, (size_t)cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    size_t len = strlen(prefix) + strlen(name) + 1;
    if (!(l->v[l->n] = (char *)malloc(len)))
        return -1;
    snprintf(l->v[l->n++], len, "%s%s", prefix, name);
    return 0;
}

void tt_h5u_names_free(h5u_names *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

/* The creation properties of a column of n rows, chunk rows a chunk: shuffle
 * (bytes of equal rank together: the high bytes of small integers are
 * mostly zero) then deflate. */
static hid_t col_dcpl(int64_t n, int64_t chunk)
{
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl >= 0 && n > 0) {
        hsize_t c = (hsize_t)(n < chunk ? n : chunk);
        if (H5Pset_chunk(dcpl, 1, &c) < 0 || H5Pset_shuffle(dcpl) < 0 ||
            (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0 && H5Pset_deflate(dcpl, H5U_LEVEL) < 0)) {
            H5Pclose(dcpl);
            return -1;
        }
    }
    return dcpl;
}

int tt_h5u_write_col(hid_t grp, const char *name, hid_t filetype, hid_t memtype, int64_t n,
                  const void *data, const char *units, int64_t missing, int has_missing)
{
    hsize_t dim = (hsize_t)n;
    hid_t space = H5Screate_simple(1, &dim, NULL);
    hid_t dcpl = col_dcpl(n, H5U_CHUNK_ROWS);
    hid_t d = dcpl < 0 ? -1 : H5Dcreate2(grp, name, filetype, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    int rc = d < 0 ? -1 : 0;
    if (!rc && n > 0 && H5Dwrite(d, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
        rc = -1;
    if (!rc && units && tt_h5u_attr_str(d, "units", units))
        rc = -1;
    if (!rc && has_missing && tt_h5u_attr_i64(d, "missing", missing))
        rc = -1;
    if (d >= 0)
        H5Dclose(d);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    H5Sclose(space);
    return rc;
}

/* Rows [i, i + k) of the 1-D dataset d as the selections to read or write
 * them: *mem gets a k-row memory space; -1 when HDF5 failed. */
static hid_t block_space(hid_t d, int64_t i, int64_t k, hid_t *mem)
{
    hsize_t off = (hsize_t)i, cnt = (hsize_t)k;
    hid_t fs = H5Dget_space(d);
    *mem = H5Screate_simple(1, &cnt, NULL);
    if (fs < 0 || *mem < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, &off, NULL, &cnt, NULL) < 0) {
        if (fs >= 0)
            H5Sclose(fs);
        if (*mem >= 0)
            H5Sclose(*mem);
        return -1;
    }
    return fs;
}

/* A fixed-length UTF-8 string type of size bytes, NUL-padded. */
static hid_t fixed_utf8(size_t size, H5T_str_t pad)
{
    hid_t type = H5Tcopy(H5T_C_S1);
    if (type >= 0 && (H5Tset_size(type, size) < 0 || H5Tset_strpad(type, pad) < 0 ||
                      H5Tset_cset(type, H5T_CSET_UTF8) < 0)) {
        H5Tclose(type);
        return -1;
    }
    return type;
}

int tt_h5u_write_strs(hid_t grp, const char *name, int64_t n, const char *const *s)
{
    size_t size = 1;
    for (int64_t i = 0; i < n; i++) {
        size_t len = strlen(s[i]);
        size = len > size ? len : size;
    }
    /* about a numeric chunk's bytes, so one long string does not make a
     * chunk (and the block built to write it) huge */
    int64_t chunk = (int64_t)(H5U_CHUNK_ROWS * sizeof(int64_t) / size);
    chunk = chunk < 1 ? 1 : chunk;
    int64_t block = n < chunk ? n : chunk;
    hsize_t dim = (hsize_t)n;
    hid_t space = H5Screate_simple(1, &dim, NULL);
    hid_t type = fixed_utf8(size, H5T_STR_NULLPAD);
    hid_t dcpl = col_dcpl(n, chunk);
    char *buf = (char *)malloc((size_t)(block ? block : 1) * size);
    hid_t d = type < 0 || dcpl < 0 || !buf
                  ? -1
                  : H5Dcreate2(grp, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    int rc = d < 0 ? -1 : 0;
    for (int64_t i = 0; !rc && i < n; i += block) {
        int64_t k = n - i < block ? n - i : block;
        memset(buf, 0, (size_t)k * size);
        for (int64_t j = 0; j < k; j++)
            memcpy(buf + (size_t)j * size, s[i + j], strlen(s[i + j]));
        hid_t mem, fs = block_space(d, i, k, &mem);
        rc = fs < 0 || H5Dwrite(d, type, mem, fs, H5P_DEFAULT, buf) < 0 ? -1 : 0;
        if (fs >= 0) {
            H5Sclose(fs);
            H5Sclose(mem);
        }
    }
    if (d >= 0)
        H5Dclose(d);
    free(buf);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (type >= 0)
        H5Tclose(type);
    H5Sclose(space);
    return rc;
}

/* Rows read at a time, and their bytes at most (a file may say its
 * strings are 2 GB long): a bound on the memory a huge table takes. */
#define STR_BLOCK_ROWS 65536
#define STR_BLOCK_BYTES (8 << 20)

int tt_h5u_read_strs(hid_t d, int (*each)(void *arg, int64_t i, const char *s), void *arg)
{
    hid_t space = H5Dget_space(d), ft = H5Dget_type(d);
    int64_t n = space < 0 ? -1 : (int64_t)H5Sget_simple_extent_npoints(space);
    int vlen = ft < 0 ? -1 : H5Tis_variable_str(ft);
    int rc = n < 0 || vlen < 0 || H5Sget_simple_extent_ndims(space) != 1 ||
                     H5Tget_class(ft) != H5T_STRING
                 ? -1
                 : 0;
    /* fixed length: one byte more, so every string ends in a NUL */
    size_t size = vlen ? sizeof(char *) : (rc ? 0 : H5Tget_size(ft) + 1);
    hid_t mt = rc ? -1 : vlen ? tt_h5u_vlen_utf8() : fixed_utf8(size, H5T_STR_NULLTERM);
    /* in the file's character set: HDF5 converts none to another (h5py
     * writes ASCII) */
    if (mt >= 0 && H5Tset_cset(mt, H5Tget_cset(ft)) < 0)
        rc = -1;
    int64_t block = size ? (int64_t)(STR_BLOCK_BYTES / size) : 1;
    block = block < 1 ? 1 : block > STR_BLOCK_ROWS ? STR_BLOCK_ROWS : block;
    block = n < block ? n : block;
    char *buf = rc ? NULL : (char *)calloc((size_t)(block ? block : 1), size);
    if (mt < 0 || !buf)
        rc = -1;
    for (int64_t i = 0; !rc && i < n; i += block) {
        int64_t k = n - i < block ? n - i : block;
        hid_t mem, fs = block_space(d, i, k, &mem);
        int got = fs >= 0 && H5Dread(d, mt, mem, fs, H5P_DEFAULT, buf) >= 0;
        rc = got ? 0 : -1;
        for (int64_t j = 0; !rc && j < k; j++) {
            const char *v = vlen ? ((char **)buf)[j] : buf + (size_t)j * size;
            rc = each(arg, i + j, v ? v : "");
        }
        if (vlen && got)
            H5Dvlen_reclaim(mt, mem, H5P_DEFAULT, buf);
        if (fs >= 0) {
            H5Sclose(fs);
            H5Sclose(mem);
        }
    }
    free(buf);
    if (mt >= 0)
        H5Tclose(mt);
    if (ft >= 0)
        H5Tclose(ft);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

int tt_h5u_scalar(hid_t grp, const char *name, hid_t filetype, hid_t memtype, const void *v,
               const char *units)
{
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t d = H5Dcreate2(grp, name, filetype, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = d < 0 || H5Dwrite(d, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0 ? -1 : 0;
    if (!rc && units && tt_h5u_attr_str(d, "units", units))
        rc = -1;
    if (d >= 0)
        H5Dclose(d);
    H5Sclose(space);
    return rc;
}

int tt_h5u_scalar_str(hid_t grp, const char *name, const char *value)
{
    hid_t type = tt_h5u_vlen_utf8();
    int rc = tt_h5u_scalar(grp, name, type, type, &value, NULL);
    H5Tclose(type);
    return rc;
}

int tt_h5u_attr_read_i64(hid_t obj, const char *name, int64_t *out)
{
    if (H5Aexists(obj, name) <= 0)
        return -1;
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    herr_t rc = a < 0 ? -1 : H5Aread(a, H5T_NATIVE_INT64, out);
    if (a >= 0)
        H5Aclose(a);
    return rc < 0 ? -1 : 0;
}

hid_t tt_h5u_attr_open_scalar(hid_t obj, const char *name, H5T_class_t cls)
{
    if (H5Aexists(obj, name) <= 0)
        return -1;
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    if (a < 0)
        return -1;
    hid_t t = H5Aget_type(a), sp = H5Aget_space(a);
    int ok = t >= 0 && sp >= 0 && H5Tget_class(t) == cls && H5Sget_simple_extent_npoints(sp) == 1;
    if (t >= 0)
        H5Tclose(t);
    if (sp >= 0)
        H5Sclose(sp);
    if (!ok) {
        H5Aclose(a);
        return -1;
    }
    return a;
}

const char *tt_h5u_file_kind(hid_t f)
{
    if (H5Lexists(f, GRP_TUNE, H5P_DEFAULT) > 0)
        return "it is a tune file";
    if (H5Lexists(f, GRP_JOBS, H5P_DEFAULT) > 0)
        return "it is a trace";
    if (H5Lexists(f, GRP_SWEEP, H5P_DEFAULT) > 0)
        return "it is a sweep file";
    return H5Lexists(f, GRP_SIM, H5P_DEFAULT) > 0 ? "it is a simulation result" : NULL;
}

char *tt_h5u_attr_read_str(hid_t obj, const char *name)
{
    hid_t a = tt_h5u_attr_open_scalar(obj, name, H5T_STRING);
    if (a < 0)
        return NULL;
    hid_t ft = H5Aget_type(a), mt = H5Tcopy(H5T_C_S1);
    H5Tset_cset(mt, H5Tget_cset(ft));
    char *out = NULL;
    if (H5Tis_variable_str(ft) > 0) {
        char *v = NULL;
        H5Tset_size(mt, H5T_VARIABLE);
        if (H5Aread(a, mt, &v) >= 0 && v) {
            out = strdup(v);
            H5free_memory(v);
        }
    } else {
        /* fixed length: room for a terminating NUL the file need not hold */
        size_t size = H5Tget_size(ft);
        H5Tset_size(mt, size + 1);
        if ((out = (char *)calloc(size + 1, 1)) && H5Aread(a, mt, out) < 0) {
            free(out);
            out = NULL;
        }
    }
    H5Tclose(mt);
    H5Tclose(ft);
    H5Aclose(a);
    return out;
}

static const unsigned char h5_sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

int tt_h5u_is_image(const void *data, size_t len)
{
    return (len >= 8 && memcmp(data, h5_sig, 8) == 0) ||
           (len >= H5U_USERBLOCK + 8 &&
            memcmp((const char *)data + H5U_USERBLOCK, h5_sig, 8) == 0);
}

hid_t tt_h5u_open_image(const void *data, size_t len)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    hid_t f = -1;
    if (fapl >= 0 && H5Pset_fapl_core(fapl, 1 << 20, 0) >= 0 &&
        H5Pset_file_image(fapl, (void *)(uintptr_t)data, len) >= 0)
        f = H5Fopen("tt-image", H5F_ACC_RDONLY, fapl);
    if (fapl >= 0)
        H5Pclose(fapl);
    return f;
}

hid_t tt_h5u_group(hid_t parent, const char *name)
{
    return H5Gcreate2(parent, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
}

/* The in-memory file's buffer, kept when HDF5 lets it go at close (the
 * core driver's file image callbacks), so its bytes are written from
 * where HDF5 built them, not from a second copy. */
static void *img_malloc(size_t size, H5FD_file_image_op_t op, void *kept)
{
    (void)op;
    (void)kept;
    return malloc(size);
}

static void *img_memcpy(void *dst, const void *src, size_t size, H5FD_file_image_op_t op,
                        void *kept)
{
    (void)op;
    (void)kept;
    return memcpy(dst, src, size);
}

static void *img_realloc(void *ptr, size_t size, H5FD_file_image_op_t op, void *kept)
{
    (void)op;
    (void)kept;
    return realloc(ptr, size);
}

static herr_t img_free(void *ptr, H5FD_file_image_op_t op, void *kept)
{
    if (op == H5FD_FILE_IMAGE_OP_FILE_CLOSE && !*(void **)kept)
        *(void **)kept = ptr;
    else
        free(ptr);
    return 0;
}

static void *img_udata_copy(void *kept) { return kept; } /* one pointer, shared */
static herr_t img_udata_free(void *kept)
{
    (void)kept;
    return 0;
}

/* The bytes of an HDF5 file built in memory by fill: HDF5 never touches
 * the disk, so a disk that fills cannot leave it holding a file it failed
 * to close (HDF5 1.10 then crashes at exit, closing it again). *len gets
 * the size; NULL when fill or HDF5 failed or memory ran out. */
static void *build_image(int (*fill)(hid_t f, void *arg), void *arg, size_t *len)
{
    void *image = NULL;
    H5FD_file_image_callbacks_t cb = {img_malloc,  img_memcpy,     img_realloc,   img_free,
                                      img_udata_copy, img_udata_free, &image};
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), fcpl = H5Pcreate(H5P_FILE_CREATE);
    hid_t f = fapl >= 0 && fcpl >= 0 && H5Pset_fapl_core(fapl, IMAGE_STEP, 0) >= 0 &&
                      H5Pset_file_image_callbacks(fapl, &cb) >= 0 &&
                      H5Pset_userblock(fcpl, H5U_USERBLOCK) >= 0 /* room for the seal */
                  ? H5Fcreate("tt-h5u-save", H5F_ACC_TRUNC, fcpl, fapl)
                  : -1;
    if (fapl >= 0)
        H5Pclose(fapl);
    if (fcpl >= 0)
        H5Pclose(fcpl);
    if (f < 0)
        return NULL;
    /* the size of the image (its end of allocation) once flushed */
    ssize_t n = fill(f, arg) || H5Fflush(f, H5F_SCOPE_LOCAL) < 0
                    ? -1
                    : H5Fget_file_image(f, NULL, 0);
    if (H5Fclose(f) < 0 || n <= 0) {
        free(image);
        image = NULL;
    }
    /* the size HDF5 gives counts from its base address, after the user
     * block */
    *len = image ? (size_t)n + H5U_USERBLOCK : 0;
    return image;
}

int tt_h5u_build(int (*fill)(hid_t f, void *arg), void *arg)
{
    tt_h5u_quiet();
    size_t len;
    void *image = build_image(fill, arg, &len);
    int rc = image ? 0 : -1;
    free(image);
    return rc;
}

int tt_h5u_save(tt_ctx *ctx, const char *path, int (*fill)(hid_t f, void *arg), void *arg)
{
    tt_h5u_quiet();
    tt_outfile o;
    int rc = tt_outfile_open(ctx, &o, path);
    if (rc)
        return rc;
    size_t len;
    void *image = build_image(fill, arg, &len);
    if (image)
        tt_h5u_seal(image, len);
    rc = image ? tt_outfile_write(ctx, &o, image, len)
               : tt_err(ctx, TT_EIO, "cannot write '%s': the HDF5 library failed or memory ran "
                                     "out", path);
    free(image);
    return rc;
}
