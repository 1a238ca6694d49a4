/* threads.c: what compiling from several threads needs. A compilation runs Python (linecache,
 * co_lines, imports, the on-disk cache), so the GIL changes hands in the middle of one.
 *
 * Compilations under way are records on their table's cj_pending_list (a Dispatcher's, a
 * KernelLauncher's), keyed by argument types and owned by the compiling thread. A miss claims
 * the key (cj_pending_begin), looks again and compiles: one signature compiles once, while
 * other threads wait for it with the GIL released (on the record's lock, held by the owner
 * until cj_pending_end). A key its own thread already holds is a function calling itself back
 * (mutual recursion, which cujit does not type): TypingError, as for one thread. A wait that
 * would close a circle (thread 1 compiling A needs B, which thread 2 compiles and needs A)
 * gets the same TypingError instead of a deadlock. Records, and the list of waiting threads,
 * are only read and written with the GIL held. A wait can be interrupted (Ctrl-C: the signal's
 * exception, the wait abandoned). After fork() only the forking thread lives on: a record
 * another thread owned is orphaned (no one will end it), so the child drops it from its list
 * when it meets it and compiles the key itself, and forgets the waiting threads.
 *
 * Tables grow with cj_table_reserve: a grown table's old array stays allocated until the
 * table goes (cj_table_free), so a reader that took the array pointer before Python ran (and
 * another thread added an entry) still reads valid entries. Entries are written before the
 * count that makes them visible, and are never removed while the table lives: the lookup that
 * a call or launch does on every hit needs no lock. */
#include "jit/jit.h"

#include <pthread.h>
#include <pythread.h>
#include <string.h>

/* How long a waiting thread sleeps between looks at pending signals (Ctrl-C). */
#define WAIT_SLICE_US 50000

/* Bumped in each child of fork(): records claimed in an older generation by another thread
 * belong to a thread that does not exist here. */
static unsigned long fork_generation;

struct cj_pending {
    struct cj_pending *next;
    const cj_type *const *types; /* the owner's: read only while the record is listed */
    int nargs;
    int finished;                /* unlisted: its waiters are about to wake */
    unsigned long owner;
    unsigned long generation;    /* fork_generation when claimed */
    PyThread_type_lock done;     /* held by the owner while it compiles */
    int refs;                    /* the owner, and each thread waiting on it */
};

/* A thread waiting on a record (in the waiting thread's frame while it waits). */
typedef struct waiter {
    unsigned long thread;
    cj_pending *on;
    struct waiter *next;
} waiter;
static waiter *waiting;

static void pending_unref(cj_pending *p) {
    if (--p->refs == 0) {
        PyThread_free_lock(p->done);
        PyMem_Free(p);
    }
}

/* Whether `me` waiting on `p` closes a circle of threads each waiting for the next. */
static int closes_circle(const cj_pending *p, unsigned long me) {
    unsigned long thread = p->owner;
    for (int steps = 0; steps < 1024; steps++) {
        const waiter *w = waiting;
        while (w != NULL && (w->thread != thread || w->on->finished)) {
            w = w->next;
        }
        if (w == NULL) {
            return 0;
        }
        if (w->on->owner == me) {
            return 1;
        }
        thread = w->on->owner;
    }
    return 1; /* a chain this long is a circle among threads already waiting */
}

/* Waits, with the GIL released, for `p`'s owner to end its compilation: 0, or -1 with the
 * exception of a signal that interrupted the wait (KeyboardInterrupt). */
static int wait_for(cj_pending *p) {
    waiter me = {PyThread_get_thread_ident(), p, waiting};
    waiting = &me;
    p->refs++;
    int rc = 0;
    PyLockStatus got = PY_LOCK_INTR;
    while (got != PY_LOCK_ACQUIRED && rc == 0) {
        Py_BEGIN_ALLOW_THREADS
        /* in slices: a signal wakes only the thread the OS gave it to, maybe not this one */
        got = PyThread_acquire_lock_timed(p->done, WAIT_SLICE_US, 1);
        Py_END_ALLOW_THREADS
        rc = got == PY_LOCK_ACQUIRED ? 0 : PyErr_CheckSignals();
    }
    if (got == PY_LOCK_ACQUIRED) {
        PyThread_release_lock(p->done);
    }
    waiter **link = &waiting;
    while (*link != &me) {
        link = &(*link)->next;
    }
    *link = me.next;
    pending_unref(p);
    return rc;
}

/* In the child of fork(), before any Python runs there: async-signal-safe. */
static void forget_other_threads(void) {
    fork_generation++;
    waiting = NULL; /* they waited in threads the child does not have */
}

int cj_threads_init(PyObject *module) {
    (void)module;
    if (pthread_atfork(NULL, NULL, forget_other_threads) != 0) {
        PyErr_SetString(PyExc_OSError, "pthread_atfork failed");
        return -1;
    }
    return 0;
}

/* Whether `p` was claimed by a thread that did not survive fork() into this process. */
static int orphaned(const cj_pending *p, unsigned long me) {
    return p->generation != fork_generation && p->owner != me;
}

static int same_key(const cj_pending *p, const cj_type *const *types, int nargs) {
    if (p->nargs != nargs) {
        return 0;
    }
    for (int i = 0; i < nargs; i++) {
        if (p->types[i] != types[i]) {
            return 0;
        }
    }
    return 1;
}

int cj_pending_begin(cj_pending_list *list, const cj_type *const *types, int nargs,
                     PyObject *func, cj_pending **claim) {
    unsigned long me = PyThread_get_thread_ident();
    for (cj_pending **link = &list->head; *link != NULL;) {
        cj_pending *p = *link;
        if (orphaned(p, me)) { /* unlisted and left allocated: its lock is held forever */
            p->finished = 1;
            *link = p->next;
            continue;
        }
        link = &p->next;
        if (same_key(p, types, nargs)) {
            if (p->owner == me || closes_circle(p, me)) {
                PyErr_Format(cj_TypingError, "cujit cannot type mutually recursive jitted "
                                             "functions (%S calls itself back)",
                             PyFunction_Check(func) ? ((PyFunctionObject *)func)->func_qualname
                                                    : func);
                return -1;
            }
            return wait_for(p) < 0 ? -1 : 0;
        }
    }
    cj_pending *p = PyMem_Calloc(1, sizeof(cj_pending));
    if (p == NULL || (p->done = PyThread_allocate_lock()) == NULL) {
        PyMem_Free(p);
        PyErr_NoMemory();
        return -1;
    }
    PyThread_acquire_lock(p->done, NOWAIT_LOCK); /* a fresh lock: taken at once */
    p->next = list->head;
    p->types = types;
    p->nargs = nargs;
    p->owner = me;
    p->generation = fork_generation;
    p->refs = 1;
    list->head = p;
    *claim = p;
    return 1;
}

void cj_pending_end(cj_pending_list *list, cj_pending *claim) {
    cj_pending **link = &list->head;
    while (*link != claim) {
        link = &(*link)->next;
    }
    *link = claim->next;
    claim->finished = 1;
    PyThread_release_lock(claim->done);
    pending_unref(claim);
}

/* Each array has one slot before its entries: the array it replaced (freed with the table). */
int cj_table_reserve(void ***items, int n, int *cap) {
    if (n < *cap) {
        return 0;
    }
    int grown = *cap ? *cap * 2 : 4;
    void **base = PyMem_Malloc(sizeof(void *) * (size_t)(grown + 1));
    if (base == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    base[0] = *items != NULL ? (void *)(*items - 1) : NULL;
    if (n > 0) {
        memcpy(base + 1, *items, sizeof(void *) * (size_t)n);
    }
    *items = base + 1; /* the new array is complete before readers see it */
    *cap = grown;
    return 0;
}

void cj_table_free(void **items) {
    void **base = items != NULL ? items - 1 : NULL;
    while (base != NULL) {
        void **older = base[0];
        PyMem_Free(base);
        base = older;
    }
}
