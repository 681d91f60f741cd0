/* Stopping a long compiled call: Ctrl-C, and the helper threads of an interrupted call.
 *
 * The loops run with the GIL released, so Python's signal handler only marks the signal
 * pending: nothing raises KeyboardInterrupt until the call returns. Each long loop polls a
 * watch (bs_watch_poll, a countdown: a few instructions between looks). On Python's main
 * thread a look re-takes the GIL at most every BS_SIGNAL_CHECK_NS for PyErr_CheckSignals;
 * where a handler raises (KeyboardInterrupt), the call stops, frees what it holds and
 * returns with that exception. Every look reads the stop epoch too: stop_calls() (which
 * bleusuite.threads calls when the caller's thread of a call on several threads is
 * interrupted) advances it, and every compiled call that began before stops the same way
 * (raising KeyboardInterrupt in its thread), so an interrupted call does not leave its
 * helper threads computing what nobody will read.
 */
#include "native.h"

#include <time.h>

/* polls between two looks at the epoch and the clock */
#define BS_POLLS_PER_LOOK 64u
/* the main thread checks for signals at most this often (20 ms: Ctrl-C answers well
 * within 0.5 s, and the GIL is taken 50 times a second at most) */
#define BS_SIGNAL_CHECK_NS 20000000ull

static volatile long stop_epoch;
static unsigned long main_thread;

static uint64_t
monotonic_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

/* Python's main thread (threading.main_thread()), where signal handlers run; the importing
 * thread where it cannot be read */
void
bs_interrupt_ready(void)
{
    main_thread = PyThread_get_thread_ident();
    PyObject *threading = PyImport_ImportModule("threading");
    PyObject *main = threading ? PyObject_CallMethod(threading, "main_thread", NULL) : NULL;
    PyObject *ident = main ? PyObject_GetAttrString(main, "ident") : NULL;
    if (ident != NULL && PyLong_Check(ident)) {
        const unsigned long value = PyLong_AsUnsignedLong(ident);
        if (!PyErr_Occurred()) main_thread = value;
    }
    PyErr_Clear();
    Py_XDECREF(ident);
    Py_XDECREF(main);
    Py_XDECREF(threading);
}

void
bs_watch_begin(bs_Watch *watch)
{
    watch->epoch = __atomic_load_n(&stop_epoch, __ATOMIC_ACQUIRE);
    watch->main_thread = PyThread_get_thread_ident() == main_thread;
    watch->stopped = 0;
    watch->signalled = 0;
    watch->countdown = BS_POLLS_PER_LOOK;
    watch->next_ns = watch->main_thread ? monotonic_ns() + BS_SIGNAL_CHECK_NS : 0;
}

int
bs_watch_look(bs_Watch *watch)
{
    watch->countdown = BS_POLLS_PER_LOOK;
    if (__atomic_load_n(&stop_epoch, __ATOMIC_ACQUIRE) != watch->epoch) {
        watch->stopped = 1;
        return 1;
    }
    if (!watch->main_thread) return 0;
    const uint64_t now = monotonic_ns();
    if (now < watch->next_ns) return 0;
    watch->next_ns = now + BS_SIGNAL_CHECK_NS;
    /* the thread released the GIL (Py_BEGIN_ALLOW_THREADS): take it back for a moment */
    PyGILState_STATE gil = PyGILState_Ensure();
    const int raised = PyErr_CheckSignals() < 0;
    PyGILState_Release(gil);
    if (raised) { /* the exception stays set in this thread until the call returns */
        __atomic_add_fetch(&stop_epoch, 1, __ATOMIC_ACQ_REL);
        watch->stopped = 1;
        watch->signalled = 1;
    }
    return raised;
}

int
bs_watch_end(bs_Watch *watch)
{
    if (!watch->stopped) return 0;
    if (!watch->signalled || !PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
    return -1;
}

const char bs_stop_calls_doc[] =
"stop_calls()\n--\n\n"
"Stop every compiled call running now (in any thread): each frees what it holds and\n"
"raises KeyboardInterrupt in its own thread. Calls that begin afterwards are not affected.";

PyObject *
bs_stop_calls(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    __atomic_add_fetch(&stop_epoch, 1, __ATOMIC_ACQ_REL);
    Py_RETURN_NONE;
}
