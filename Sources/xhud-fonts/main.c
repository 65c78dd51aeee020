/* xhud-fonts: fontconfig's matches for a server that has none kept.
 *
 * A client that starts a server finding no kept font matches starts this beside it, its output
 * a pipe the server reads (ServerLauncher, FontWarmup). Linked to fontconfig alone, it reaches
 * main in a third of the server's time and reads fontconfig's configuration (48 XML files,
 * the longest part of a first start; not the 55 it only lists, see `xhud_font_config_new`)
 * while the server's libraries are still being mapped.
 *
 * Usage: xhud-fonts PROGRAM DPI [KEY FAMILIES WEIGHT SLANT WIDTH PIXEL_SIZE]...
 * Prints "font KEY<TAB>MATCH" for each description that matches (the kept matches' lines), as
 * the program named (the server; fontconfig's rules may test its name) would match it, in the
 * order given (the label's font first). */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "CFontMatch.h"

static int number(const char *s, double *out) {
    char *end;
    *out = strtod(s, &end);
    return *s && !*end;
}

int main(int argc, char **argv) {
    double dpi;
    if (argc < 3 || (argc - 3) % 6 != 0 || !*argv[1] || !number(argv[2], &dpi)) {
        fprintf(stderr, "usage: xhud-fonts PROGRAM DPI [KEY FAMILIES WEIGHT SLANT WIDTH PIXEL_SIZE]...\n");
        return 2;
    }
    xhud_font_config_load();
    for (int i = 3; i < argc; i += 6) {
        const char *key = argv[i], *families = argv[i + 1];
        double weight, slant, width, size;
        if (!number(argv[i + 2], &weight) || !number(argv[i + 3], &slant) || !number(argv[i + 4], &width) ||
            !number(argv[i + 5], &size) || strpbrk(key, "\t\n")) {
            fprintf(stderr, "xhud-fonts: not a description: %s\n", key);
            return 2;
        }
        char *match = xhud_font_match(families, weight, (int)slant, (int)width, size, dpi, argv[1]);
        /* Each line as soon as it is made: the server draws its label with the first. */
        if (match && !strchr(match, '\n')) {
            printf("font %s\t%s\n", key, match);
            fflush(stdout);
        }
        free(match);
        /* The rest only on a CPU that nothing else wants: the server is drawing its first frame
         * (if it waits for one of these, it leaves its CPU free). */
        if (i == 3) {
            struct sched_param none = {0};
            sched_setscheduler(0, SCHED_IDLE, &none);
        }
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
