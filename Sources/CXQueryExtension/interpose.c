#define _GNU_SOURCE
#include "CXQueryExtension.h"
#include "CXPrefetch.h"
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

/* Xlib's extension libraries call XQueryExtension through their PLT (so does Xlib's own
 * XInitExtension): this definition, exported by the executable, is the one they find.
 * GE is said to be absent: libXext registers every extension it initialises with GE and asks
 * GE's version the first time (a round trip of its own), for events xhud never reads through
 * libXext; Present's events are decoded through libX11's cookies (CPresent), and GE's version
 * goes with the connection's first questions (CXPrefetch). */
Bool XQueryExtension(Display *dpy, _Xconst char *name, int *major_opcode, int *first_event, int *first_error) {
    if (strcmp(name, "Generic Event Extension") == 0) {
        *major_opcode = *first_event = *first_error = 0;
        return False;
    }
    return xhud_query_extension(dpy, name, major_opcode, first_event, first_error);
}

/* XOpenDisplay's first question once the connection is set up: BIG-REQUESTS (its QueryExtension,
 * then Enable, two round trips). The connection's own questions go with the first (CXPrefetch);
 * Enable is sent and not waited for: Xlib, given the core protocol's limit, sends no big request
 * of its own (it splits its large ones, as on a server without BIG-REQUESTS), and XCB reads the
 * answer if one of its requests ever needs it. Any other call is XCB's own. */
static uint32_t (*next)(xcb_connection_t *);
static pthread_once_t once = PTHREAD_ONCE_INIT;
static void resolve(void) { next = (uint32_t (*)(xcb_connection_t *))dlsym(RTLD_NEXT, "xcb_get_maximum_request_length"); }

uint32_t xcb_get_maximum_request_length(xcb_connection_t *c) {
    if (xhud_opening(c)) {
        xcb_prefetch_maximum_request_length(c);
        return xcb_get_setup(c)->maximum_request_length;
    }
    pthread_once(&once, resolve);
    return next ? next(c) : xcb_get_setup(c)->maximum_request_length;
}
