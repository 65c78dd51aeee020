#define _GNU_SOURCE
#include "CXPrefetch.h"
#include <X11/Xlib-xcb.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* XCB keys its answers by these (their ids are given on first use, process-wide). */
static xcb_extension_t known[] = {
    { "RANDR", 0 }, { "Generic Event Extension", 0 }, { "RENDER", 0 }, { "XFIXES", 0 },
    { "DAMAGE", 0 }, { "MIT-SHM", 0 }, { "Present", 0 },
};
enum { knownCount = sizeof known / sizeof known[0] };

enum { randr = 0 };

typedef Bool (*QueryFunction)(Display *, const char *, int *, int *, int *);
static QueryFunction xlibQuery;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Xlib's own XQueryExtension: the next definition after this executable's (xhud-host defines
 * one, which must not call itself), else libX11's by name. */
static void resolve(void) {
    xlibQuery = (QueryFunction)dlsym(RTLD_NEXT, "XQueryExtension");
    if (!xlibQuery) {
        void *x11 = dlopen("libX11.so.6", RTLD_LAZY | RTLD_NOLOAD);
        if (x11) xlibQuery = (QueryFunction)dlsym(x11, "XQueryExtension");
    }
}

void xhud_extensions_prefetch(Display *dpy) {
    xcb_connection_t *c = XGetXCBConnection(dpy);
    for (int i = 0; i < knownCount; i++) xcb_prefetch_extension_data(c, &known[i]);
}

Bool xhud_query_extension(Display *dpy, const char *name, int *major_opcode, int *first_event, int *first_error) {
    pthread_once(&once, resolve);
    for (int i = 0; i < knownCount; i++) {
        if (strcmp(name, known[i].name) != 0) continue;
        const xcb_query_extension_reply_t *r = xcb_get_extension_data(XGetXCBConnection(dpy), &known[i]);
        if (!r) break;   /* the connection failed: Xlib's own says so its way */
        *major_opcode = r->major_opcode;
        *first_event = r->first_event;
        *first_error = r->first_error;
        return r->present ? True : False;
    }
    if (!xlibQuery) return False;
    return xlibQuery(dpy, name, major_opcode, first_event, first_error);
}

unsigned int xhud_selection_owner_send(Display *dpy, Atom selection) {
    return xcb_get_selection_owner(XGetXCBConnection(dpy), (xcb_atom_t)selection).sequence;
}

Window xhud_selection_owner_take(Display *dpy, unsigned int sequence) {
    xcb_get_selection_owner_cookie_t cookie = { sequence };
    xcb_generic_error_t *e = NULL;
    xcb_get_selection_owner_reply_t *r = xcb_get_selection_owner_reply(XGetXCBConnection(dpy), cookie, &e);
    free(e);
    Window owner = r ? r->owner : 0;
    free(r);
    return owner;
}

unsigned int xhud_window_name_send(Display *dpy, Window window) {
    return xcb_get_property(XGetXCBConnection(dpy), 0, (xcb_window_t)window, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 0, 16).sequence;
}

int xhud_window_name_take(Display *dpy, unsigned int sequence, char *out, int capacity) {
    xcb_get_property_cookie_t cookie = { sequence };
    xcb_generic_error_t *e = NULL;
    xcb_get_property_reply_t *r = xcb_get_property_reply(XGetXCBConnection(dpy), cookie, &e);
    free(e);
    int n = -1;
    if (r && r->type == XCB_ATOM_STRING && r->format == 8 && capacity > 0) {
        n = xcb_get_property_value_length(r);
        if (n > capacity - 1) n = capacity - 1;
        memcpy(out, xcb_get_property_value(r), (size_t)n);
        out[n] = 0;
    }
    free(r);
    return n;
}

unsigned int xhud_monitors_send(Display *dpy, Window root) {
    xcb_connection_t *c = XGetXCBConnection(dpy);
    const xcb_query_extension_reply_t *ext = xcb_get_extension_data(c, &known[randr]);
    if (!ext || !ext->present) return 0;
    /* RRGetMonitors (42): the header XCB fills (major, minor, length), the window, get_active. */
    static const xcb_protocol_request_t request = { .count = 1, .ext = &known[randr], .opcode = 42, .isvoid = 0 };
    struct { uint8_t major, minor; uint16_t length; uint32_t window; uint8_t active, pad[3]; } body = {
        0, 0, 0, (uint32_t)root, 1, { 0, 0, 0 } };
    /* XCB uses the two entries before the request's own. */
    struct iovec parts[3] = { { 0, 0 }, { 0, 0 }, { &body, sizeof body } };
    return xcb_send_request(c, XCB_REQUEST_CHECKED, parts + 2, &request);
}

XHUDMonitor *xhud_monitors_take(Display *dpy, unsigned int sequence, int *count) {
    *count = 0;
    xcb_generic_error_t *e = NULL;
    uint8_t *r = xcb_wait_for_reply(XGetXCBConnection(dpy), sequence, &e);
    free(e);
    if (!r) return NULL;
    /* The reply: 32 bytes (then 4 * length): its count of monitors at 12; each monitor 24 bytes
     * (name, primary, automatic, its number of outputs, x, y, width, height, millimetres) and its
     * outputs. A monitor takes at least 24 of the reply's bytes, which bounds the array. */
    uint32_t length, n;
    memcpy(&length, r + 4, 4);
    memcpy(&n, r + 12, 4);
    size_t end = 32 + (size_t)length * 4, at = 32;
    if (n > (end - 32) / 24) { free(r); return NULL; }
    XHUDMonitor *out = n ? calloc(n, sizeof *out) : NULL;
    if (n && !out) { free(r); return NULL; }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t name; uint16_t outputs; int16_t x, y; uint16_t w, h;
        memcpy(&name, r + at, 4);
        memcpy(&outputs, r + at + 6, 2);
        memcpy(&x, r + at + 8, 2);
        memcpy(&y, r + at + 10, 2);
        memcpy(&w, r + at + 12, 2);
        memcpy(&h, r + at + 14, 2);
        out[i] = (XHUDMonitor){ name, r[at + 4] != 0, x, y, w, h };
        at += 24 + (size_t)outputs * 4;
        if (at > end) { free(out); free(r); return NULL; }
    }
    free(r);
    *count = (int)n;
    return out;
}

void xhud_reply_discard(Display *dpy, unsigned int sequence) {
    xcb_discard_reply(XGetXCBConnection(dpy), sequence);
}
