/* fake_launch.c: module and launch entry points added to tests/cuda/fake_libcuda.c (built
 * together into one fake libcuda), recording what cuLaunchKernel receives so the launch path's
 * argument packing and exception handling can be tested without a GPU. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

/* each loaded module: its PTX and its entry's parameter count; handles are index + 1 */
#define MAX_MODULES 1024
static char *images[MAX_MODULES];
static int module_params[MAX_MODULES];
static int module_maxntid[MAX_MODULES]; /* its .maxntid (launch_bounds), else 0 */
static int nmodules;
static int nparams; /* of the last launched function */
static uint64_t last_params[512];
static unsigned int last_dims[7];
static int launches;
static unsigned int exc_info[7];

CUresult cuModuleLoadData(void **module, const void *data) {
    if (nmodules == MAX_MODULES) {
        return 2; /* CUDA_ERROR_OUT_OF_MEMORY */
    }
    char *image;
    const unsigned char *elf = data;
    if (memcmp(elf, "\177ELF", 4) == 0) {
        /* a cubin (nvJitLink's): its size from the ELF64 header (section headers last), kept
         * with its NULs as newlines so the names in it can be looked up as in PTX */
        uint64_t shoff;
        uint16_t shentsize, shnum;
        memcpy(&shoff, elf + 0x28, 8);
        memcpy(&shentsize, elf + 0x3a, 2);
        memcpy(&shnum, elf + 0x3c, 2);
        size_t size = (size_t)(shoff + (uint64_t)shentsize * shnum);
        image = malloc(size + 1);
        for (size_t i = 0; i < size; i++) {
            image[i] = elf[i] ? (char)elf[i] : '\n';
        }
        image[size] = 0;
    } else {
        image = strdup((const char *)data);
    }
    /* count the entry's parameters: lines "\t.param .u64 name_param_N" up to the ")" that
     * closes its list (a linked image has functions with parameters of their own) */
    int count = 0;
    const char *entry = strstr(image, ".entry");
    const char *end = entry ? strchr(entry, ')') : NULL;
    for (const char *p = entry; p && (p = strstr(p, "\t.param .")) != NULL && p < end; p++) {
        count++;
    }
    images[nmodules] = image;
    module_params[nmodules] = count;
    const char *bound = strstr(image, ".maxntid ");
    module_maxntid[nmodules] = bound ? atoi(bound + 9) : 0;
    *module = (void *)(uintptr_t)++nmodules;
    return 0;
}
CUresult cuModuleLoadDataEx(void **m, const void *d, unsigned int n, int *o, void **v) {
    return cuModuleLoadData(m, d);
}
CUresult cuModuleGetFunction(void **fn, void *module, const char *name) {
    uintptr_t m = (uintptr_t)module;
    if (m == 0 || m > (uintptr_t)nmodules || strstr(images[m - 1], name) == NULL) {
        return 500; /* CUDA_ERROR_NOT_FOUND */
    }
    *fn = module; /* one entry per module */
    return 0;
}
CUresult cuModuleGetGlobal_v2(CUdeviceptr *ptr, size_t *size, void *module, const char *name) {
    if (strcmp(name, "cj_exc_info") != 0) {
        return 500;
    }
    *ptr = (CUdeviceptr)(uintptr_t)exc_info;
    *size = sizeof(exc_info);
    return 0;
}
CUresult cuModuleUnload(void *module) { return 0; }
CUresult cuFuncGetAttribute(int *value, int attrib, void *fn) {
    static const int values[] = {1024, 0, 0, 0, 17};
    *value = attrib >= 0 && attrib < 5 ? values[attrib] : 0;
    int bound = module_maxntid[(uintptr_t)fn - 1];
    if (attrib == 0 && bound > 0) {
        *value = bound; /* the driver's max threads per block honour .maxntid */
    }
    return 0;
}

/* the driver's linker: the "cubin" is the inputs' PTX joined, so cuModuleLoadData above reads
 * it; each input's name is recorded for the tests, and an input without ".version" fails as
 * CUDA_ERROR_INVALID_PTX (218) with a log line */
static char link_names[1024];
static char *link_image;
static int link_inputs, link_destroys;
static char *link_log;
static size_t link_log_size;
CUresult cuLinkCreate_v2(unsigned int n, int *options, void **values, void **state) {
    link_names[0] = 0;
    link_inputs = 0;
    link_log = NULL;
    for (unsigned int i = 0; i < n; i++) {
        if (options[i] == 5) {
            link_log = values[i];
        } else if (options[i] == 6) {
            link_log_size = (size_t)values[i];
        }
    }
    free(link_image);
    link_image = strdup("");
    *state = &link_image;
    return 0;
}
CUresult cuLinkAddData_v2(void *state, int type, void *data, size_t size, const char *name,
                          unsigned int n, int *o, void **v) {
    if (type != 1 || strstr((const char *)data, ".version") == NULL) {
        if (link_log != NULL && link_log_size > 0) {
            strncpy(link_log, "ptxas fatal   : not PTX", link_log_size);
        }
        return 218; /* CUDA_ERROR_INVALID_PTX */
    }
    size_t old = strlen(link_image);
    link_image = realloc(link_image, old + size + 2);
    memcpy(link_image + old, data, size);
    link_image[old + size] = 0;
    strncat(link_names, name, sizeof(link_names) - strlen(link_names) - 2);
    strcat(link_names, ";");
    link_inputs++;
    return 0;
}
CUresult cuLinkComplete(void *state, void **cubin, size_t *size) {
    *cubin = link_image;
    *size = strlen(link_image) + 1;
    return 0;
}
CUresult cuLinkDestroy(void *state) {
    link_destroys++;
    return 0;
}
int fake_link_inputs(void) { return link_inputs; }
int fake_link_destroys(void) { return link_destroys; }
const char *fake_link_names(void) { return link_names; }
CUresult cuLaunchKernel(void *fn, unsigned int gx, unsigned int gy, unsigned int gz,
                        unsigned int bx, unsigned int by, unsigned int bz, unsigned int shmem,
                        void *stream, void **params, void **extra) {
    unsigned int dims[7] = {gx, gy, gz, bx, by, bz, shmem};
    memcpy(last_dims, dims, sizeof(dims));
    nparams = module_params[(uintptr_t)fn - 1];
    for (int i = 0; i < nparams && i < 512; i++) {
        memcpy(&last_params[i], params[i], 8);
    }
    launches++;
    return 0;
}
/* a cooperative launch is recorded as a launch, and counted */
static int cooperative_launches;
CUresult cuLaunchCooperativeKernel(void *fn, unsigned int gx, unsigned int gy, unsigned int gz,
                                   unsigned int bx, unsigned int by, unsigned int bz,
                                   unsigned int shmem, void *stream, void **params) {
    cooperative_launches++;
    return cuLaunchKernel(fn, gx, gy, gz, bx, by, bz, shmem, stream, params, NULL);
}
/* 2048 threads an SM, less 4 KB of dynamic shared memory per block than 228 KB allow */
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, void *fn, int block_size,
                                                     size_t dynamic_smem) {
    int by_threads = 2048 / block_size, by_smem = (int)(228 * 1024 / (dynamic_smem + 4096));
    *blocks = by_threads < by_smem ? by_threads : by_smem;
    return 0;
}
int fake_cooperative_launches(void) { return cooperative_launches; }

/* the occupancy API: a block size that is neither a power of two nor the limit, so the tests
 * see forall use it; records what it was asked */
static size_t occupancy_smem;
static int occupancy_limit, occupancy_calls;
CUresult cuOccupancyMaxPotentialBlockSize(int *min_grid, int *block, void *fn, void *b2d,
                                          size_t dynamic_smem, int block_limit) {
    occupancy_smem = dynamic_smem;
    occupancy_limit = block_limit;
    occupancy_calls++;
    *block = block_limit < 384 ? block_limit : 384;
    *min_grid = 132 * 5;
    return 0;
}

/* for the tests, through ctypes */
int fake_occupancy_calls(void) { return occupancy_calls; }
int fake_occupancy_limit(void) { return occupancy_limit; }
unsigned long long fake_occupancy_smem(void) { return occupancy_smem; }
int fake_launches(void) { return launches; }
int fake_nparams(void) { return nparams; }
uint64_t fake_param(int i) { return last_params[i]; }
unsigned int fake_dim(int i) { return last_dims[i]; }
void fake_set_exception(unsigned int id, unsigned int tx, unsigned int cx) {
    exc_info[0] = id;
    exc_info[1] = tx;
    exc_info[4] = cx;
}
unsigned int fake_exception_id(void) { return exc_info[0]; }
