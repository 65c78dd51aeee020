#ifndef CARGV_H
#define CARGV_H
/* Whether argv came from glibc's call of the executable's .init_array (see argv.c). */
int xhud_argv_from_glibc(void);
#endif
