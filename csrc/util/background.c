/* background.c: long work that cannot look at signals itself (an LLVM pipeline, libnvvm) runs
 * on a thread of its own while the calling thread waits with the GIL held, looking at signals
 * every 50 ms: Ctrl-C interrupts a long compile within a fraction of a second. Interrupted
 * work goes on alone and its thread frees what it used; the process waits for such threads
 * at exit (the libraries' static objects go away then). */
#include "util/util.h"

#include <pthread.h>
#include <time.h>

#define WAIT_SLICE_NS 50000000L

typedef struct task {
    void (*work)(void *);
    void (*drop)(void *);
    void *arg;
    pthread_mutex_t lock;
    pthread_cond_t finished_cv;
    int finished, abandoned;
} task;

static pthread_mutex_t running_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t running_cv = PTHREAD_COND_INITIALIZER;
static int running, exit_hook;

static void wait_for_tasks_at_exit(void) {
    pthread_mutex_lock(&running_lock);
    while (running > 0) {
        pthread_cond_wait(&running_cv, &running_lock);
    }
    pthread_mutex_unlock(&running_lock);
}

static void count_running(int delta) {
    pthread_mutex_lock(&running_lock);
    running += delta;
    pthread_cond_broadcast(&running_cv);
    pthread_mutex_unlock(&running_lock);
}

static void task_free(task *t) {
    pthread_mutex_destroy(&t->lock);
    pthread_cond_destroy(&t->finished_cv);
    PyMem_RawFree(t);
}

static void *task_main(void *arg) {
    task *t = arg;
    t->work(t->arg);
    pthread_mutex_lock(&t->lock);
    t->finished = 1;
    int abandoned = t->abandoned;
    pthread_cond_signal(&t->finished_cv);
    pthread_mutex_unlock(&t->lock);
    if (abandoned) { /* the caller has gone: what it handed over ends here */
        t->drop(t->arg);
        task_free(t);
    }
    count_running(-1);
    return NULL;
}

/* 1 when the task finished, 0 when a signal handler raised (the exception set): the task is
 * abandoned, or dropped here when it finished meanwhile. */
static int wait_interruptibly(task *t) {
    pthread_mutex_lock(&t->lock);
    while (!t->finished) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += WAIT_SLICE_NS;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&t->finished_cv, &t->lock, &until);
        if (t->finished) {
            break;
        }
        pthread_mutex_unlock(&t->lock); /* a handler runs Python: not under our lock */
        int rc = PyErr_CheckSignals();
        pthread_mutex_lock(&t->lock);
        if (rc < 0) {
            int finished = t->finished;
            t->abandoned = !finished;
            pthread_mutex_unlock(&t->lock);
            if (finished) { /* it ended meanwhile: the interrupt wins all the same */
                t->drop(t->arg);
                task_free(t);
            }
            return 0;
        }
    }
    pthread_mutex_unlock(&t->lock);
    return 1;
}

int cj_run_in_background(void (*work)(void *), void (*drop)(void *), void *arg) {
    task *t = PyMem_RawCalloc(1, sizeof(task));
    if (t == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    t->work = work;
    t->drop = drop;
    t->arg = arg;
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->finished_cv, NULL);
    if (!exit_hook && Py_AtExit(wait_for_tasks_at_exit) == 0) {
        exit_hook = 1;
    }
    count_running(1);
    pthread_t thread;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int started = pthread_create(&thread, &attr, task_main, t) == 0;
    pthread_attr_destroy(&attr);
    if (!started) {
        count_running(-1);
        task_free(t);
        PyErr_SetString(PyExc_RuntimeError, "cujit: cannot start a compile thread");
        return -1;
    }
    if (!wait_interruptibly(t)) {
        return -2;
    }
    task_free(t);
    return 0;
}
