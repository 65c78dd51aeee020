#define _GNU_SOURCE
#include "CSched.h"
#include <sched.h>
#include <unistd.h>

int xhud_sched_cpu_among_several(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) < 2) return -1;
    int cpu = sched_getcpu();
    return cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set) ? cpu : -1;
}

pid_t xhud_sched_keep_off(int cpu) {
    cpu_set_t set;
    if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof set, &set) != 0) return 0;
    CPU_CLR(cpu, &set);
    if (CPU_COUNT(&set) == 0 || sched_setaffinity(0, sizeof set, &set) != 0) return 0;
    return gettid();
}

void xhud_sched_release(pid_t tid) {
    cpu_set_t set;
    /* The process's own set: that of its main thread, never kept off anything. */
    if (sched_getaffinity(getpid(), sizeof set, &set) == 0) sched_setaffinity(tid, sizeof set, &set);
}

int xhud_sched_allowed(int cpu) {
    cpu_set_t set;
    return cpu >= 0 && cpu < CPU_SETSIZE && sched_getaffinity(0, sizeof set, &set) == 0 && CPU_ISSET(cpu, &set);
}
