#ifndef CARGV_H
#define CARGV_H
/* Nothing to call: linking this target gives Swift's CommandLine its argv from glibc (argv.c). */
#endif
