/* Stopping a long C loop early, so that Ctrl-C reaches Python promptly.
 *
 * A loop that may run long (a batch of games, rollouts, solver decisions)
 * calls ofc_stop_now() between units of work (a turn, a game): it returns
 * 1 when the loop should return.  The flag is shared by every thread of
 * one call: another thread sets it (threads.run_chunks, after Ctrl-C
 * reached the main thread while it waited), or this check does.  In the
 * main thread, the only one Python delivers signals to, the check also
 * looks at Python's pending signals about every OFC_STOP_MS milliseconds
 * (reading the clock only every OFC_STOP_EVERY calls, so a cheap unit of
 * work pays a counter): when a handler raised (KeyboardInterrupt), the flag
 * is set and the exception stays pending for the caller to raise
 * (`raised`).  A loop whose units cost unevenly (completions of `tries`
 * arrangements, moves valued on a deck, searches of many nodes) calls
 * ofc_stop_after(s, cost) instead, with each unit's cost in layout
 * evaluations (some 30 ns each): it looks every OFC_STOP_WORK of them,
 * and reads the clock each time it looks.  Nothing here runs without a loop
 * asking: no signal handler is replaced. */
#ifndef OFC_STOP_H
#define OFC_STOP_H
#include <Python.h>
#include "ofc_compat.h"
#if defined(_WIN32)
#include <windows.h>
#else
#include <time.h>
#endif

#define OFC_STOP_MS 20       /* how often the main thread looks at signals */
#define OFC_STOP_EVERY 8     /* calls between two reads of the clock */
#define OFC_STOP_WORK 4096   /* evaluations between two looks (ofc_stop_after): ~0.1 ms */

typedef struct {
    volatile int *flag;      /* shared by the call's threads: stop */
    int main;                /* this thread is Python's main thread */
    int count;               /* calls since the clock was read */
    long long work;          /* evaluations since the last look (ofc_stop_after) */
    int raised;              /* a signal handler raised here: an exception is pending */
    double next;             /* when to look at the signals next (seconds) */
} ofc_stop;

/* Seconds of a monotonic clock. */
OFC_INLINE double ofc_monotonic(void)
{
#if defined(_WIN32)
    LARGE_INTEGER f, t;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&t);
    return (double)t.QuadPart / (double)f.QuadPart;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

/* A check of this thread, on a call's shared flag (main: Python's main thread). */
OFC_INLINE void ofc_stop_init(ofc_stop *s, volatile int *flag, int main)
{
    s->flag = flag;
    s->main = main;
    s->count = 0;
    s->work = 0;
    s->raised = 0;
    s->next = ofc_monotonic() + OFC_STOP_MS * 1e-3;
}

/* Look at Python's pending signals (the GIL taken for it). */
static int ofc_stop_signals(ofc_stop *s)
{
    PyGILState_STATE g = PyGILState_Ensure();
    if (PyErr_CheckSignals() < 0) {        /* a handler raised: keep it pending */
        s->raised = 1;
        *s->flag = 1;
    }
    PyGILState_Release(g);
    return *s->flag;
}

/* Should the loop return now?  The flag, and in the main thread the clock
 * and, when OFC_STOP_MS have passed, the signals. */
OFC_INLINE int ofc_stop_look(ofc_stop *s)
{
    double t;
    if (*s->flag)
        return 1;
    if (!s->main)
        return 0;
    t = ofc_monotonic();
    if (t < s->next)
        return 0;
    s->next = t + OFC_STOP_MS * 1e-3;
    return ofc_stop_signals(s);
}

/* Should the loop return now?  Cheap: a flag read, and in the main thread
 * a counter, then every OFC_STOP_EVERY calls a clock read. */
OFC_ALWAYS_INLINE int ofc_stop_now(ofc_stop *s)
{
    if (*s->flag)
        return 1;
    if (!s->main || ++s->count < OFC_STOP_EVERY)
        return 0;
    s->count = 0;
    return ofc_stop_look(s);
}

/* Should the loop return now, after a unit of work of `cost` layout
 * evaluations (or as costly: search nodes)?  A sum, and every OFC_STOP_WORK
 * evaluations a look (ofc_stop_look): a unit of any size pays an addition,
 * and a stop (the flag, a signal) is seen within OFC_STOP_WORK evaluations
 * or one unit. */
OFC_ALWAYS_INLINE int ofc_stop_after(ofc_stop *s, long long cost)
{
    s->work += cost;
    if (s->work < OFC_STOP_WORK)
        return 0;
    s->work = 0;
    return ofc_stop_look(s);
}
#endif
