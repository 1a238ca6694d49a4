/* blas.c: matrix products for compiled code (np.dot, np.vdot, @) through the BLAS the process
 * already has, found at run time: NumPy's bundled OpenBLAS (scipy_openblas, 64-bit integer
 * names `scipy_cblas_dgemm64_`), an ILP64 `cblas_dgemm64_`, or a plain LP64 `cblas_dgemm`.
 * Compiled code calls cj_blas_gemm / cj_blas_dot by name (target/cpu.c defines them in the
 * JIT); they take any strides: an operand whose rows or columns are contiguous goes to the
 * BLAS as it is (transposed when column-major), any other is first copied into a contiguous
 * buffer. cj_blas_find runs at compile time, with the GIL; the products need none. */
#include "abi/abi.h" /* Python.h defines _GNU_SOURCE: dl_iterate_phdr, RTLD_DEFAULT */

#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

enum { ROW_MAJOR = 101, NO_TRANS = 111, TRANS = 112 };

static struct {
    int found, ilp64;
    void (*gemm[4])(void); /* s d c z */
    void (*dot[4])(void);  /* sdot ddot cdotu_sub zdotu_sub */
    void (*dotc[2])(void); /* cdotc_sub zdotc_sub */
} blas;

static const char *const letters = "sdcz";

/* Each name of the family, in the order tried. */
static void *lookup(void *lib, const char *what, int *ilp64) {
    static const char *const forms[] = {"scipy_cblas_%s64_", "cblas_%s64_", "cblas_%s"};
    for (int f = 0; f < 3; f++) {
        char name[64];
        PyOS_snprintf(name, sizeof(name), forms[f], what);
        void *p = dlsym(lib, name);
        if (p != NULL) {
            *ilp64 = f < 2;
            return p;
        }
    }
    return NULL;
}

static int take_library(void *lib) {
    int ilp64 = 0, also = 0;
    for (int t = 0; t < 4; t++) {
        char name[16];
        PyOS_snprintf(name, sizeof(name), "%cgemm", letters[t]);
        blas.gemm[t] = (void (*)(void))lookup(lib, name, t == 0 ? &ilp64 : &also);
        PyOS_snprintf(name, sizeof(name), t < 2 ? "%cdot" : "%cdotu_sub", letters[t]);
        blas.dot[t] = (void (*)(void))lookup(lib, name, &also);
        if (t >= 2) {
            PyOS_snprintf(name, sizeof(name), "%cdotc_sub", letters[t]);
            blas.dotc[t - 2] = (void (*)(void))lookup(lib, name, &also);
        }
        if (blas.gemm[t] == NULL || blas.dot[t] == NULL || (t >= 2 && !blas.dotc[t - 2]) ||
            (t > 0 && also != ilp64)) {
            return 0;
        }
    }
    blas.ilp64 = ilp64;
    return 1;
}

static int visit(struct dl_phdr_info *info, size_t size, void *found) {
    (void)size;
    const char *name = info->dlpi_name;
    if (name == NULL || strstr(name, "blas") == NULL) {
        return 0;
    }
    void *lib = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
    if (lib != NULL && take_library(lib)) {
        *(int *)found = 1;
        return 1; /* the handle stays open: the library stays loaded */
    }
    if (lib != NULL) {
        dlclose(lib);
    }
    return 0;
}

int cj_blas_find(void) {
    if (blas.found) {
        return 1;
    }
    int found = 0;
    dl_iterate_phdr(visit, &found);
    if (!found) {
        found = take_library(RTLD_DEFAULT);
    }
    blas.found = found;
    return found;
}

/* ---- the products ---- */

typedef struct operand {
    const char *data;
    int64_t ld;   /* leading dimension, in elements */
    int trans;    /* NO_TRANS: row-major; TRANS: column-major */
    char *copy;   /* malloc'd contiguous copy, or NULL */
} operand;

/* A rows x cols matrix with byte strides s0, s1 as a BLAS operand: as it is when its rows
 * (or columns) are contiguous with a positive leading stride, else copied. -1: no memory. */
static int prepare(operand *o, const char *data, int64_t rows, int64_t cols, int64_t s0,
                   int64_t s1, int64_t item) {
    *o = (operand){.data = data, .trans = NO_TRANS};
    s0 = rows == 1 ? cols * item : s0; /* a stride over one index is never used */
    s1 = cols == 1 ? item : s1;
    if (s1 == item && s0 > 0 && s0 % item == 0 && s0 / item >= (cols > 1 ? cols : 1)) {
        o->ld = s0 / item;
        return 0;
    }
    if (s0 == item && s1 > 0 && s1 % item == 0 && s1 / item >= (rows > 1 ? rows : 1)) {
        o->ld = s1 / item;
        o->trans = TRANS;
        return 0;
    }
    o->copy = malloc((size_t)(rows * cols * item) + 1);
    if (o->copy == NULL) {
        return -1;
    }
    for (int64_t i = 0; i < rows; i++) {
        for (int64_t j = 0; j < cols; j++) {
            memcpy(o->copy + (i * cols + j) * item, data + i * s0 + j * s1, (size_t)item);
        }
    }
    o->data = o->copy;
    o->ld = cols > 1 ? cols : 1;
    return 0;
}

#define GEMM_ARGS(I, alpha, beta)                                                              \
    ROW_MAJOR, a.trans, b.trans, (I)m, (I)n, (I)k, alpha, a.data, (I)a.ld, b.data, (I)b.ld,  \
        beta, c, (I)(n > 1 ? n : 1)

/* One call of the gemm for `kind`, its integers of type I (the library's width). */
#define GEMM_CALL(I)                                                                           \
    do {                                                                                       \
        if (kind == 0) {                                                                       \
            ((void (*)(int, int, int, I, I, I, float, const char *, I, const char *, I, float, \
                       char *, I))fn)(GEMM_ARGS(I, 1.0f, 0.0f));                               \
        } else if (kind == 1) {                                                                \
            ((void (*)(int, int, int, I, I, I, double, const char *, I, const char *, I,       \
                       double, char *, I))fn)(GEMM_ARGS(I, 1.0, 0.0));                         \
        } else {                                                                               \
            ((void (*)(int, int, int, I, I, I, const void *, const char *, I, const char *, I, \
                       const void *, char *, I))fn)(                                           \
                GEMM_ARGS(I, kind == 2 ? (const void *)one_f : one,                            \
                          kind == 2 ? (const void *)zero_f : zero));                           \
        }                                                                                      \
    } while (0)

static void call_gemm(int kind, int64_t m, int64_t n, int64_t k, operand a, operand b,
                      char *c) {
    static const double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
    static const float one_f[2] = {1.0f, 0.0f}, zero_f[2] = {0.0f, 0.0f};
    void (*fn)(void) = blas.gemm[kind];
    if (blas.ilp64) {
        GEMM_CALL(int64_t);
    } else {
        GEMM_CALL(int);
    }
}

int cj_blas_gemm(int kind, int64_t m, int64_t n, int64_t k, const char *a, int64_t as0,
                 int64_t as1, const char *b, int64_t bs0, int64_t bs1, char *c) {
    int64_t item = (int64_t)4 << (kind & 1) << (kind >> 1);
    if (m == 0 || n == 0) {
        return 0;
    }
    if (k == 0) {
        memset(c, 0, (size_t)(m * n * item));
        return 0;
    }
    operand x, y;
    if (prepare(&x, a, m, k, as0, as1, item) < 0) {
        return -1;
    }
    if (prepare(&y, b, k, n, bs0, bs1, item) < 0) {
        free(x.copy);
        return -1;
    }
    call_gemm(kind, m, n, k, x, y, c);
    free(x.copy);
    free(y.copy);
    return 0;
}

/* One call of the dot for `kind` (a number returned, or written by the complex *_sub forms),
 * its integers of type I. */
#define DOT_CALL(I)                                                                            \
    do {                                                                                       \
        if (kind == 0) {                                                                       \
            float r = ((float (*)(I, const char *, I, const char *, I))fn)(                    \
                (I)n, u.data, (I)incx, v.data, (I)incy);                                       \
            memcpy(out, &r, sizeof(r));                                                        \
        } else if (kind == 1) {                                                                \
            double r = ((double (*)(I, const char *, I, const char *, I))fn)(                  \
                (I)n, u.data, (I)incx, v.data, (I)incy);                                       \
            memcpy(out, &r, sizeof(r));                                                        \
        } else {                                                                               \
            ((void (*)(I, const char *, I, const char *, I, char *))fn)(                       \
                (I)n, u.data, (I)incx, v.data, (I)incy, out);                                  \
        }                                                                                      \
    } while (0)

int cj_blas_dot(int kind, int conj, int64_t n, const char *x, int64_t xs, const char *y,
                int64_t ys, char *out) {
    int64_t item = (int64_t)4 << (kind & 1) << (kind >> 1);
    operand u, v; /* vectors as n x 1 columns: contiguous when the stride is one element */
    if (n == 0) {
        memset(out, 0, (size_t)item);
        return 0;
    }
    if (prepare(&u, x, n, 1, xs, item, item) < 0) {
        return -1;
    }
    if (prepare(&v, y, n, 1, ys, item, item) < 0) {
        free(u.copy);
        return -1;
    }
    int64_t incx = u.trans == NO_TRANS ? u.ld : 1, incy = v.trans == NO_TRANS ? v.ld : 1;
    void (*fn)(void) = kind >= 2 && conj ? blas.dotc[kind - 2] : blas.dot[kind];
    if (blas.ilp64) {
        DOT_CALL(int64_t);
    } else {
        DOT_CALL(int);
    }
    free(u.copy);
    free(v.copy);
    return 0;
}
