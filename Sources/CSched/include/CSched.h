#ifndef CSCHED_H
#define CSCHED_H
/* The CPU placement of threads (glibc's GNU calls, which Swift does not import). */
#include <sys/types.h>

/* The CPU the calling thread runs on, or -1 when the calling thread may run on one CPU only
 * (or it is unknown). */
int xhud_sched_cpu_among_several(void);
/* Keeps the calling thread off `cpu` (of the CPUs it may use); its thread id, or 0 when not. */
pid_t xhud_sched_keep_off(int cpu);
/* Lets thread `tid` run on every CPU the process may use. */
void xhud_sched_release(pid_t tid);
/* Whether the calling thread may run on `cpu`. */
int xhud_sched_allowed(int cpu);
#endif
