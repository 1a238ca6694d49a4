/* nvvm_lib.c: finds libnvvm and libdevice, opens libnvvm with dlopen on first use and resolves
 * its entry points into a function table. The search (docs/nvvm.md):
 *   $CUJIT_LIBNVVM (an explicit path: nothing else is tried), else under each CUDA root
 *   `nvvm/lib64/libnvvm.so*`, `lib/libnvvm.so*`, `lib64/libnvvm.so*`, the roots being $CUDA_HOME,
 *   $CUDA_PATH, /usr/local/cuda, /usr/local/cuda-* (newest first) and pip's NVIDIA wheels
 *   (`nvidia/cu*` and `nvidia/cuda_nvcc` under each sys.path entry).
 * libdevice: $CUJIT_LIBDEVICE, else `nvvm/libdevice/libdevice.10.bc` of the root the library
 * came from, else of any root. Everything found stays for the life of the process. */
#include "target/nvvm_internal.h"

#include <dlfcn.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static cj_nvvm_api api;
static int api_loaded;
static char *library_path;    /* PyMem_RawMalloc'd, never freed: the library stays loaded */
static char *libdevice_path;  /* likewise */
static char *libdevice_data;
static size_t libdevice_size;

static const char *const library_subdirs[] = {"nvvm/lib64", "lib", "lib64"};

/* ---- the search roots ---- */

/* Appends the str `s` to `list` unless it is there already: 0 or -1. */
static int append_str(PyObject *list, const char *s) {
    PyObject *str = PyUnicode_DecodeFSDefault(s);
    if (str == NULL) {
        return -1;
    }
    int rc = PySequence_Contains(list, str);
    if (rc == 0) {
        rc = PyList_Append(list, str);
    }
    Py_DECREF(str);
    return rc < 0 ? -1 : 0;
}

/* The X and Y of ".../cuda-X.Y" (0 when absent); 0 when the name has no version. */
static int cuda_dir_version(const char *path, long *major, long *minor) {
    const char *dash = strrchr(path, '-');
    char *end;
    *major = *minor = 0;
    if (dash == NULL || dash[1] < '0' || dash[1] > '9') {
        return 0;
    }
    *major = strtol(dash + 1, &end, 10);
    if (*end == '.') {
        *minor = strtol(end + 1, NULL, 10);
    }
    return 1;
}

/* qsort order of /usr/local/cuda-X.Y: newest first (12.10 before 12.9), unversioned last. */
static int newest_first(const void *a, const void *b) {
    const char *pa = *(const char *const *)a, *pb = *(const char *const *)b;
    long ma, na, mb, nb;
    int ha = cuda_dir_version(pa, &ma, &na), hb = cuda_dir_version(pb, &mb, &nb);
    if (ha != hb) {
        return hb - ha;
    }
    if (ma != mb) {
        return ma < mb ? 1 : -1;
    }
    if (na != nb) {
        return na < nb ? 1 : -1;
    }
    return strcmp(pa, pb);
}

/* qsort order of .../nvidia/cuNN: newest first (cu13 before cu12, cu10 before cu9). */
static int wheel_newest_first(const void *a, const void *b) {
    const char *pa = strrchr(*(const char *const *)a, '/'), *pb = strrchr(*(const char *const *)b, '/');
    long va = pa ? strtol(pa + 3, NULL, 10) : 0, vb = pb ? strtol(pb + 3, NULL, 10) : 0;
    if (va != vb) {
        return va < vb ? 1 : -1;
    }
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Appends the directories matching `pattern`, sorted by `order` (NULL: glob's order). */
static int append_glob(PyObject *list, const char *pattern,
                       int (*order)(const void *, const void *)) {
    glob_t g;
    int rc = glob(pattern, GLOB_ONLYDIR, NULL, &g);
    if (rc == GLOB_NOMATCH) {
        return 0;
    }
    if (rc != 0) {
        PyErr_Format(cj_NvvmError, "glob(%s) failed", pattern);
        return -1;
    }
    if (order != NULL) {
        qsort(g.gl_pathv, g.gl_pathc, sizeof(char *), order);
    }
    for (size_t i = 0; i < g.gl_pathc; i++) {
        if (append_str(list, g.gl_pathv[i]) < 0) {
            globfree(&g);
            return -1;
        }
    }
    globfree(&g);
    return 0;
}

/* The CUDA roots of the wheels under the sys.path entry `entry`. */
static int append_wheel_roots(PyObject *list, const char *entry) {
    char pattern[4096];
    PyOS_snprintf(pattern, sizeof(pattern), "%s/nvidia/cu[0-9]*", entry);
    if (append_glob(list, pattern, wheel_newest_first) < 0) {
        return -1;
    }
    PyOS_snprintf(pattern, sizeof(pattern), "%s/nvidia/cuda_nvcc", entry);
    return append_glob(list, pattern, NULL);
}

/* The CUDA roots in search order: a new list of str. */
static PyObject *search_roots(void) {
    PyObject *roots = PyList_New(0);
    if (roots == NULL) {
        return NULL;
    }
    const char *envs[] = {"CUDA_HOME", "CUDA_PATH"};
    for (size_t i = 0; i < 2; i++) {
        const char *v = getenv(envs[i]);
        if (v != NULL && v[0] != '\0' && append_str(roots, v) < 0) {
            goto fail;
        }
    }
    if (append_str(roots, "/usr/local/cuda") < 0 ||
        append_glob(roots, "/usr/local/cuda-*", newest_first) < 0) {
        goto fail;
    }
    PyObject *path = PySys_GetObject("path"); /* borrowed; may be missing or not a list */
    if (path != NULL && PyList_Check(path)) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(path); i++) {
            PyObject *entry = PyList_GET_ITEM(path, i);
            if (!PyUnicode_Check(entry)) {
                continue;
            }
            PyObject *bytes = PyUnicode_EncodeFSDefault(entry);
            if (bytes == NULL) {
                PyErr_Clear(); /* an unencodable sys.path entry holds no wheel of ours */
                continue;
            }
            int rc = append_wheel_roots(roots, PyBytes_AS_STRING(bytes));
            Py_DECREF(bytes);
            if (rc < 0) {
                goto fail;
            }
        }
    }
    return roots;
fail:
    Py_DECREF(roots);
    return NULL;
}

/* The glob patterns searched for libnvvm, in order: a new list of str. */
static PyObject *library_patterns(void) {
    PyObject *roots = search_roots();
    if (roots == NULL) {
        return NULL;
    }
    PyObject *patterns = PyList_New(0);
    if (patterns == NULL) {
        Py_DECREF(roots);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(roots); i++) {
        for (size_t j = 0; j < sizeof(library_subdirs) / sizeof(library_subdirs[0]); j++) {
            PyObject *p = PyUnicode_FromFormat("%U/%s/libnvvm.so*", PyList_GET_ITEM(roots, i),
                                               library_subdirs[j]);
            if (p == NULL || PyList_Append(patterns, p) < 0) {
                Py_XDECREF(p);
                Py_DECREF(patterns);
                Py_DECREF(roots);
                return NULL;
            }
            Py_DECREF(p);
        }
    }
    Py_DECREF(roots);
    return patterns;
}

/* Appends the files matching each pattern of `patterns` to `files`. */
static int expand_patterns(PyObject *patterns, PyObject *files) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(patterns); i++) {
        PyObject *bytes = PyUnicode_EncodeFSDefault(PyList_GET_ITEM(patterns, i));
        if (bytes == NULL) {
            return -1;
        }
        glob_t g;
        int rc = glob(PyBytes_AS_STRING(bytes), 0, NULL, &g);
        Py_DECREF(bytes);
        if (rc == GLOB_NOMATCH) {
            continue;
        }
        if (rc != 0) {
            PyErr_SetString(cj_NvvmError, "glob failed while searching for libnvvm");
            return -1;
        }
        for (size_t k = 0; k < g.gl_pathc; k++) {
            if (append_str(files, g.gl_pathv[k]) < 0) {
                globfree(&g);
                return -1;
            }
        }
        globfree(&g);
    }
    return 0;
}

PyObject *cj_nvvm_library_candidates(void) {
    PyObject *files = PyList_New(0);
    if (files == NULL) {
        return NULL;
    }
    const char *explicit_path = getenv("CUJIT_LIBNVVM");
    if (explicit_path != NULL && explicit_path[0] != '\0') {
        if (append_str(files, explicit_path) < 0) {
            Py_DECREF(files);
            return NULL;
        }
        return files;
    }
    PyObject *patterns = library_patterns();
    if (patterns == NULL || expand_patterns(patterns, files) < 0) {
        Py_XDECREF(patterns);
        Py_DECREF(files);
        return NULL;
    }
    Py_DECREF(patterns);
    return files;
}

/* ---- loading ---- */

/* Resolves every entry point of `handle` into `table`: 0, or -1 with the missing name in *missing. */
static int resolve(void *handle, cj_nvvm_api *table, const char **missing) {
#define CJ_RESOLVE(name)                                                                 \
    do {                                                                                 \
        *(void **)&table->name = dlsym(handle, "nvvm" #name);                            \
        if (table->name == NULL) {                                                       \
            *missing = "nvvm" #name;                                                     \
            return -1;                                                                   \
        }                                                                                \
    } while (0)
    CJ_RESOLVE(GetErrorString);
    CJ_RESOLVE(Version);
    CJ_RESOLVE(IRVersion);
    CJ_RESOLVE(CreateProgram);
    CJ_RESOLVE(DestroyProgram);
    CJ_RESOLVE(AddModuleToProgram);
    CJ_RESOLVE(LazyAddModuleToProgram);
    CJ_RESOLVE(CompileProgram);
    CJ_RESOLVE(GetCompiledResultSize);
    CJ_RESOLVE(GetCompiledResult);
    CJ_RESOLVE(GetProgramLogSize);
    CJ_RESOLVE(GetProgramLog);
#undef CJ_RESOLVE
    return 0;
}

static char *raw_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *copy = PyMem_RawMalloc(n);
    if (copy != NULL) {
        memcpy(copy, s, n);
    }
    return copy;
}

/* Tries to load `path`: 1 when loaded, 0 when not (a line appended to `tried`), -1 on error. */
static int try_load(const char *path, PyObject *tried) {
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    PyObject *why;
    if (handle == NULL) {
        const char *err = dlerror();
        why = PyUnicode_FromFormat("%s: %s", path, err ? err : "dlopen failed");
    } else {
        cj_nvvm_api table;
        const char *missing = NULL;
        if (resolve(handle, &table, &missing) == 0) {
            library_path = raw_strdup(path);
            if (library_path == NULL) {
                dlclose(handle);
                PyErr_NoMemory();
                return -1;
            }
            api = table;
            api_loaded = 1;
            return 1; /* the handle stays open for the life of the process */
        }
        dlclose(handle);
        why = PyUnicode_FromFormat("%s: no symbol %s (not libnvvm?)", path, missing);
    }
    if (why == NULL) {
        return -1;
    }
    int rc = PyList_Append(tried, why);
    Py_DECREF(why);
    return rc < 0 ? -1 : 0;
}

/* Sets cj_NvvmError for a failed search; `tried` lists the files that would not load. */
static void set_not_found(PyObject *tried) {
    PyObject *sep = PyUnicode_FromString("\n  ");
    PyObject *tried_text = sep ? PyUnicode_Join(sep, tried) : NULL;
    const char *explicit_path = getenv("CUJIT_LIBNVVM");
    if (tried_text == NULL) {
        Py_XDECREF(sep);
        return;
    }
    if (explicit_path != NULL && explicit_path[0] != '\0') {
        PyErr_Format(cj_NvvmError, "libnvvm could not be loaded from $CUJIT_LIBNVVM:\n  %U",
                     tried_text);
    } else {
        PyObject *patterns = library_patterns();
        PyObject *searched = patterns ? PyUnicode_Join(sep, patterns) : NULL;
        PyObject *failed = PyList_GET_SIZE(tried) == 0
                               ? PyUnicode_FromString("")
                               : PyUnicode_FromFormat("Found but could not load:\n  %U\n",
                                                      tried_text);
        if (searched != NULL && failed != NULL) {
            PyErr_Format(cj_NvvmError,
                         "libnvvm (the CUDA toolkit's NVVM compiler) was not found. Searched:\n"
                         "  %U\n  (and for pip's wheels nvidia/cu*/ and nvidia/cuda_nvcc/ under each sys.path "
                         "entry)\n%UInstall the CUDA toolkit (or pip's nvidia-nvvm / "
                         "nvidia-cuda-nvcc wheel), or set CUJIT_LIBNVVM to libnvvm.so's path or "
                         "CUDA_HOME to the toolkit.",
                         searched, failed);
        }
        Py_XDECREF(patterns);
        Py_XDECREF(searched);
        Py_XDECREF(failed);
    }
    Py_DECREF(tried_text);
    Py_DECREF(sep);
}

const cj_nvvm_api *cj_nvvm_api_get(void) {
    if (api_loaded) {
        return &api;
    }
    PyObject *files = cj_nvvm_library_candidates();
    PyObject *tried = files ? PyList_New(0) : NULL;
    if (tried == NULL) {
        Py_XDECREF(files);
        return NULL;
    }
    int rc = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(files) && rc == 0; i++) {
        PyObject *bytes = PyUnicode_EncodeFSDefault(PyList_GET_ITEM(files, i));
        if (bytes == NULL) {
            rc = -1;
            break;
        }
        rc = try_load(PyBytes_AS_STRING(bytes), tried);
        Py_DECREF(bytes);
    }
    if (rc == 0) {
        set_not_found(tried);
    }
    Py_DECREF(files);
    Py_DECREF(tried);
    return rc == 1 ? &api : NULL;
}

int cj_nvvm_check(const cj_nvvm_api *table, cj_nvvm_result rc, const char *what,
                  cj_nvvm_program prog) {
    if (rc == 0) {
        return 0;
    }
    const char *name = table->GetErrorString(rc);
    char *log = NULL;
    size_t size = 0;
    if (prog != NULL && table->GetProgramLogSize(prog, &size) == 0 && size > 1) {
        log = PyMem_RawMalloc(size);
        if (log != NULL && table->GetProgramLog(prog, log) != 0) {
            PyMem_RawFree(log);
            log = NULL;
        }
    }
    if (log != NULL) {
        log[size - 1] = '\0';
        PyErr_Format(cj_NvvmError, "%s failed: %s\n%s", what, name ? name : "?", log);
        PyMem_RawFree(log);
    } else {
        PyErr_Format(cj_NvvmError, "%s failed: %s", what, name ? name : "?");
    }
    return -1;
}

/* ---- versions and paths ---- */

int cj_nvvm_version(int *major, int *minor) {
    const cj_nvvm_api *table = cj_nvvm_api_get();
    if (table == NULL) {
        return -1;
    }
    return cj_nvvm_check(table, table->Version(major, minor), "nvvmVersion", NULL);
}

int cj_nvvm_ir_version(int *major, int *minor, int *dbg_major, int *dbg_minor) {
    const cj_nvvm_api *table = cj_nvvm_api_get();
    if (table == NULL) {
        return -1;
    }
    return cj_nvvm_check(table, table->IRVersion(major, minor, dbg_major, dbg_minor),
                         "nvvmIRVersion", NULL);
}

const char *cj_nvvm_library_path(void) {
    return cj_nvvm_api_get() ? library_path : NULL;
}

static int is_readable_file(const char *path) {
    return access(path, R_OK) == 0;
}

/* The CUDA root holding `lib` (".../nvvm/lib64/libnvvm.so" -> "..."), written into `root`. */
void cj_nvvm_library_root(const char *lib, char *root, size_t size) {
    PyOS_snprintf(root, size, "%s", lib);
    char *slash = strrchr(root, '/');
    if (slash == NULL) {
        root[0] = '\0';
        return;
    }
    *slash = '\0';
    const char *suffixes[] = {"/nvvm/lib64", "/lib64", "/lib"};
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(root), k = strlen(suffixes[i]);
        if (n >= k && strcmp(root + n - k, suffixes[i]) == 0) {
            root[n - k] = '\0';
            return;
        }
    }
}

#define LIBDEVICE_SUBPATH "nvvm/libdevice/libdevice.10.bc"

/* Sets libdevice_path to the first candidate that exists: 1, 0 when none, -1 on error. */
static int find_libdevice(PyObject *looked) {
    char path[4096];
    char root[4096];
    cj_nvvm_library_root(library_path, root, sizeof(root));
    PyOS_snprintf(path, sizeof(path), "%s/" LIBDEVICE_SUBPATH, root);
    if (append_str(looked, path) < 0) {
        return -1;
    }
    if (is_readable_file(path)) {
        return (libdevice_path = raw_strdup(path)) ? 1 : (PyErr_NoMemory(), -1);
    }
    PyObject *roots = search_roots();
    if (roots == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(roots); i++) {
        PyObject *bytes = PyUnicode_EncodeFSDefault(PyList_GET_ITEM(roots, i));
        if (bytes == NULL) {
            Py_DECREF(roots);
            return -1;
        }
        PyOS_snprintf(path, sizeof(path), "%s/" LIBDEVICE_SUBPATH, PyBytes_AS_STRING(bytes));
        Py_DECREF(bytes);
        if (append_str(looked, path) < 0) {
            Py_DECREF(roots);
            return -1;
        }
        if (is_readable_file(path)) {
            Py_DECREF(roots);
            return (libdevice_path = raw_strdup(path)) ? 1 : (PyErr_NoMemory(), -1);
        }
    }
    Py_DECREF(roots);
    return 0;
}

const char *cj_nvvm_libdevice_path(void) {
    if (libdevice_path != NULL) {
        return libdevice_path;
    }
    const char *explicit_path = getenv("CUJIT_LIBDEVICE");
    if (explicit_path != NULL && explicit_path[0] != '\0') {
        if (!is_readable_file(explicit_path)) {
            PyErr_Format(cj_NvvmError, "libdevice not found at $CUJIT_LIBDEVICE=%s",
                         explicit_path);
            return NULL;
        }
        libdevice_path = raw_strdup(explicit_path);
        return libdevice_path ? libdevice_path : (PyErr_NoMemory(), NULL);
    }
    if (cj_nvvm_api_get() == NULL) {
        return NULL;
    }
    PyObject *looked = PyList_New(0);
    if (looked == NULL) {
        return NULL;
    }
    int rc = find_libdevice(looked);
    if (rc == 0) {
        PyObject *sep = PyUnicode_FromString("\n  ");
        PyObject *text = sep ? PyUnicode_Join(sep, looked) : NULL;
        if (text != NULL) {
            PyErr_Format(cj_NvvmError,
                         "libdevice.10.bc (needed for math functions) was not found. "
                         "Looked at:\n  %U\nSet CUJIT_LIBDEVICE to its path.",
                         text);
        }
        Py_XDECREF(text);
        Py_XDECREF(sep);
    }
    Py_DECREF(looked);
    return rc == 1 ? libdevice_path : NULL;
}

const char *cj_nvvm_libdevice_bitcode(size_t *size) {
    if (libdevice_data != NULL) {
        *size = libdevice_size;
        return libdevice_data;
    }
    const char *path = cj_nvvm_libdevice_path();
    if (path == NULL) {
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        PyErr_Format(cj_NvvmError, "cannot open libdevice %s", path);
        return NULL;
    }
    char *data = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
        data = PyMem_RawMalloc((size_t)n);
        if (data != NULL && fread(data, 1, (size_t)n, f) != (size_t)n) {
            PyMem_RawFree(data);
            data = NULL;
            n = -1;
        }
    }
    fclose(f);
    if (data == NULL) {
        if (n > 0) {
            PyErr_NoMemory();
        } else {
            PyErr_Format(cj_NvvmError, "cannot read libdevice %s", path);
        }
        return NULL;
    }
    libdevice_data = data;
    libdevice_size = (size_t)n;
    *size = libdevice_size;
    return libdevice_data;
}
