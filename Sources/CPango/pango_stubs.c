/* The Pango functions xhud calls, each loading Pango on first use (see CPango.h). Hidden: the
 * stubs are this program's own and are never exported, so a library loaded later that calls
 * Pango reaches Pango itself. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#pragma GCC visibility push(hidden)
#include "CPango.h"
#pragma GCC visibility pop

#define POINTER(ret, name, params, args) static ret (*real_##name) params;
#define VPOINTER(name, params, args) static void (*real_##name) params;
XHUD_PANGO_FUNCTIONS(POINTER, VPOINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char error[256];

static void load(void) {
    /* libpangocairo brings Pango, PangoFT2, HarfBuzz, GLib and GObject; each function is looked
     * up in its scope. Global: GObject's type system is one per process, whoever loads it. */
    void *h = dlopen("libpangocairo-1.0.so.0", RTLD_LAZY | RTLD_GLOBAL);
    if (!h) {
        snprintf(error, sizeof error, "%s", dlerror());
        return;
    }
#define RESOLVE(name) \
    if (!(*(void **)&real_##name = dlsym(h, #name))) { \
        snprintf(error, sizeof error, "libpangocairo-1.0.so.0 has no %s", #name); \
        return; \
    }
#define XRESOLVE(ret, name, params, args) RESOLVE(name)
#define VRESOLVE(name, params, args) RESOLVE(name)
    XHUD_PANGO_FUNCTIONS(XRESOLVE, VRESOLVE)
    loaded = 1;
}

int xhud_pango_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *xhud_pango_error(void) {
    return xhud_pango_load() ? NULL : error;
}

/* Text is part of every HUD: without Pango (a broken installation) nothing can be drawn. */
static void require(void) {
    if (__builtin_expect(xhud_pango_load(), 1)) return;
    fprintf(stderr, "xhud: cannot load Pango: %s (install libpangocairo-1.0-0)\n", error);
    exit(127);
}

#define STUB(ret, name, params, args) ret name params { require(); return real_##name args; }
#define VSTUB(name, params, args) void name params { require(); real_##name args; }
XHUD_PANGO_FUNCTIONS(STUB, VSTUB)
