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

/* Collects the ranges of explicit colours and takes backgrounds out. */
struct ranges { unsigned (*range)[2]; size_t n, capacity; };

static gboolean colour_filter(PangoAttribute *a, gpointer data) {
    struct ranges *r = data;
    int type = a->klass->type;
    if (type == PANGO_ATTR_BACKGROUND || type == PANGO_ATTR_BACKGROUND_ALPHA) return 1;
    if (type != PANGO_ATTR_FOREGROUND) return 0;
    if (r->n == r->capacity) {
        size_t c = r->capacity ? r->capacity * 2 : 16;
        void *p = realloc(r->range, c * sizeof *r->range);
        if (!p) return 0;
        r->range = p;
        r->capacity = c;
    }
    r->range[r->n][0] = a->start_index;
    r->range[r->n][1] = a->end_index;
    r->n++;
    return 0;
}

void xhud_pango_keep_default_colour(PangoLayout *l) {
    PangoAttrList *attrs = pango_layout_get_attributes(l);
    if (!attrs) return;
    PangoAttrList *copy = pango_attr_list_copy(attrs);
    struct ranges r = {0};
    PangoAttrList *removed = pango_attr_list_filter(copy, colour_filter, &r);
    if (removed) pango_attr_list_unref(removed);
    for (size_t i = 0; i < r.n; i++) {
        PangoAttribute *a = pango_attr_foreground_alpha_new(1);
        a->start_index = r.range[i][0];
        a->end_index = r.range[i][1];
        pango_attr_list_insert(copy, a);
    }
    free(r.range);
    pango_layout_set_attributes(l, copy);
    pango_attr_list_unref(copy);
}
