/* workqueue.c: the pool of native threads that runs prange loops (numba's "workqueue"
 * threading layer, written for cujit). Compiled code calls cj_parallel_for with an outlined
 * loop body (lower/lower_prange.c); the iterations [0, n) are split into contiguous chunks (a
 * few per thread, taken in turn), so that a chunk's index names its slot of reduction
 * partials.
 *
 * Other run-time code splits work over the same threads with cj_parallel_run (the staged
 * copies' memcpy, cuda/staging.c).
 *
 * The pool starts on first use with cj_workqueue_size() threads, the calling thread counted
 * (CUJIT_NUM_THREADS or NUMBA_NUM_THREADS, else the CPUs; at most CJ_PARALLEL_MAX_THREADS). One job runs at a time:
 * a caller that finds the pool busy (another Python thread, or a prange inside a prange body)
 * runs its whole loop itself as chunk 0, which computes the same result. The number of
 * threads a job uses is the caller's set_num_threads() (thread-local, as numba's). The
 * caller releases the GIL while the job runs when it holds it (the bodies never need it).
 * get_thread_id() is 0 outside workers and on the caller, 1..n-1 on workers. After fork() the
 * child has no workers: its pool starts afresh on its first job. */
#include <Python.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "abi/abi.h"

#define CHUNKS_PER_THREAD 4

typedef struct job {
    cj_chunk_fn body;
    void *ctx;
    int64_t n;
    char *partials;
    int64_t partial_size;
    int nchunks;
    atomic_int next;   /* the next chunk to take */
    atomic_int done;   /* chunks finished */
    atomic_int status; /* the first non-zero status a chunk returned */
} job;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake, finished;
    job *current;         /* the job in progress, or NULL */
    int busy;             /* a caller owns the pool (its job may not be posted yet) */
    int holders;          /* workers that took `current` and may still touch it */
    unsigned long serial; /* bumped for each job, so workers see a new one */
    int nthreads;         /* threads of the pool, the caller included; 0: not started */
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER};

static _Thread_local int thread_id;      /* 0 on callers, 1.. on workers */
static _Thread_local int threads_wanted; /* set_num_threads() of this thread; 0: all */

/* Runs chunks of `j` until none is left. Chunk c covers [c * n / k, (c + 1) * n / k). */
static void run_chunks(job *j) {
    for (;;) {
        int c = atomic_fetch_add(&j->next, 1);
        if (c >= j->nchunks) {
            return;
        }
        int64_t lo = (int64_t)((__int128)j->n * c / j->nchunks);
        int64_t hi = (int64_t)((__int128)j->n * (c + 1) / j->nchunks);
        int status = j->body(j->ctx, lo, hi, j->partials + (int64_t)c * j->partial_size);
        if (status != 0) {
            int none = 0;
            atomic_compare_exchange_strong(&j->status, &none, status);
        }
        atomic_fetch_add(&j->done, 1);
    }
}

static void *worker(void *arg) {
    thread_id = (int)(intptr_t)arg;
    unsigned long seen = 0;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (pool.current == NULL || pool.serial == seen) {
            pthread_cond_wait(&pool.wake, &pool.lock);
        }
        job *j = pool.current;
        seen = pool.serial;
        pool.holders++; /* the job lives on the caller's stack until we let go */
        pthread_mutex_unlock(&pool.lock);
        run_chunks(j);
        pthread_mutex_lock(&pool.lock);
        pool.holders--;
        pthread_cond_broadcast(&pool.finished);
    }
    return NULL;
}

static void after_fork_in_child(void) {
    pthread_mutex_init(&pool.lock, NULL);
    pthread_cond_init(&pool.wake, NULL);
    pthread_cond_init(&pool.finished, NULL);
    pool.current = NULL;
    pool.busy = pool.holders = pool.nthreads = 0;
}

int cj_workqueue_size(void) {
    static int size;
    if (size == 0) {
        const char *env = getenv("CUJIT_NUM_THREADS"); /* config.py's rule: CUJIT_, NUMBA_ */
        if (env == NULL || !*env) {
            env = getenv("NUMBA_NUM_THREADS");
        }
        long n = env != NULL && *env ? atol(env) : sysconf(_SC_NPROCESSORS_ONLN);
        size = n < 1 ? 1 : n > CJ_PARALLEL_MAX_THREADS ? CJ_PARALLEL_MAX_THREADS : (int)n;
    }
    return size;
}

/* Starts the workers (pool.lock held); threads that fail to start leave a smaller pool. */
static void start_pool(void) {
    static int registered;
    if (!registered) {
        registered = pthread_atfork(NULL, NULL, after_fork_in_child) == 0;
    }
    pool.nthreads = cj_workqueue_size();
    for (int i = 1; i < pool.nthreads; i++) {
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int failed = pthread_create(&t, &attr, worker, (void *)(intptr_t)i);
        pthread_attr_destroy(&attr);
        if (failed) {
            pool.nthreads = i;
            break;
        }
    }
}

/* Takes the pool for one job on `want` threads: the chunk count it gets, or 1 when the pool
 * is busy (or one thread is wanted). */
static int take_pool(int want) {
    if (want < 2) {
        return 1;
    }
    pthread_mutex_lock(&pool.lock);
    if (pool.busy) {
        pthread_mutex_unlock(&pool.lock);
        return 1;
    }
    if (pool.nthreads == 0) {
        start_pool();
    }
    pool.busy = 1;
    int threads = want < pool.nthreads ? want : pool.nthreads;
    pthread_mutex_unlock(&pool.lock);
    /* a few chunks per thread, taken in turn: a thread that wakes late or runs slow gets
     * fewer (the chunk count is the partials' count, at most the limit) */
    int k = threads * CHUNKS_PER_THREAD;
    return k > CJ_PARALLEL_MAX_THREADS ? CJ_PARALLEL_MAX_THREADS : k;
}

static void run_on_pool(job *j) {
    pthread_mutex_lock(&pool.lock);
    pool.current = j;
    pool.serial++;
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.lock);
    run_chunks(j);
    pthread_mutex_lock(&pool.lock);
    /* every chunk done is not enough: a worker that took the job may not yet have looked at
     * `next`, and the job dies with this frame */
    while (atomic_load(&j->done) < j->nchunks || pool.holders > 0) {
        pthread_cond_wait(&pool.finished, &pool.lock);
    }
    pool.current = NULL;
    pool.busy = 0;
    pthread_mutex_unlock(&pool.lock);
}

int64_t cj_parallel_run(cj_chunk_fn body, void *ctx, int64_t n, void *partials,
                        int64_t partial_size, int threads, int32_t *status) {
    int k = n > 1 ? take_pool(threads) : 1;
    if (k > n) {
        k = (int)n;
    }
    job j = {body, ctx, n, partials, partial_size, k < 1 ? 1 : k};
    atomic_init(&j.next, 0);
    atomic_init(&j.done, 0);
    atomic_init(&j.status, 0);
    if (j.nchunks == 1) { /* the pool was not taken (take_pool gives 1, or >= 2 <= n) */
        run_chunks(&j);
    } else {
        PyThreadState *saved = PyGILState_Check() ? PyEval_SaveThread() : NULL;
        run_on_pool(&j);
        if (saved != NULL) {
            PyEval_RestoreThread(saved);
        }
    }
    *status = atomic_load(&j.status);
    return j.nchunks;
}

int64_t cj_parallel_for(cj_chunk_fn body, void *ctx, int64_t n, void *partials,
                        int64_t partial_size, int32_t *status) {
    return cj_parallel_run(body, ctx, n, partials, partial_size, cj_get_num_threads(), status);
}

int cj_get_num_threads(void) {
    return threads_wanted > 0 ? threads_wanted : cj_workqueue_size();
}

int cj_set_num_threads(int n) {
    if (n < 1 || n > cj_workqueue_size()) {
        return -1;
    }
    threads_wanted = n;
    return 0;
}

int cj_get_thread_id(void) {
    return thread_id;
}
