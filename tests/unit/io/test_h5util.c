/* The HDF5 helpers every layout shares: text attributes read back
 * whatever string type wrote them. */
#include <hdf5.h>

#include "io/h5util.h"
#include "testutil.h"

/* A fixed-length string attribute of size bytes (no NUL when it fills them). */
static void attr_fixed(hid_t obj, const char *name, const char *value, size_t size)
{
    hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR);
    H5Tset_size(t, size);
    H5Tset_strpad(t, H5T_STR_NULLPAD);
    hid_t a = H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
    cr_assert_geq(a, 0);
    cr_assert_geq(H5Awrite(a, t, value), 0);
    H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(t);
}

Test(h5util, attr_read_str)
{
    char path[] = "/tmp/tt-test-h5util-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    tt_h5u_quiet();
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    cr_assert_geq(f, 0);
    hid_t g = tt_h5u_group(f, "g");
    cr_assert_eq(tt_h5u_attr_str(g, "vlen", "h\xc3\xa9llo"), 0);
    attr_fixed(g, "fixed", "abcd", 4); /* no room for a NUL in the file */
    attr_fixed(g, "padded", "ab\0\0\0", 5);
    cr_assert_eq(tt_h5u_attr_i64(g, "number", 7), 0);
    hsize_t two = 2;
    hid_t sp = H5Screate_simple(1, &two, NULL), t = tt_h5u_vlen_utf8();
    const char *pair[2] = {"a", "b"};
    hid_t a = H5Acreate2(g, "pair", t, sp, H5P_DEFAULT, H5P_DEFAULT);
    cr_assert_geq(H5Awrite(a, t, pair), 0);
    H5Aclose(a);
    H5Tclose(t);
    H5Sclose(sp);
    char *v = tt_h5u_attr_read_str(g, "vlen");
    cr_expect_str_eq(v, "h\xc3\xa9llo");
    free(v);
    v = tt_h5u_attr_read_str(g, "fixed");
    cr_expect_str_eq(v, "abcd");
    free(v);
    v = tt_h5u_attr_read_str(g, "padded");
    cr_expect_str_eq(v, "ab");
    free(v);
    /* not one string, or absent: NULL */
    cr_expect_null(tt_h5u_attr_read_str(g, "number"));
    cr_expect_null(tt_h5u_attr_read_str(g, "pair"));
    cr_expect_null(tt_h5u_attr_read_str(g, "absent"));
    H5Gclose(g);
    H5Fclose(f);
    unlink(path);
}
