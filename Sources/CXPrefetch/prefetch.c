#define _GNU_SOURCE
#include "CXPrefetch.h"
#include <X11/Xlib-xcb.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>
#include <xcb/bigreq.h>
#include <stdio.h>
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

enum { randr = 0, ge = 1, xfixes = 3 };

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

static Window take_selection_owner(xcb_connection_t *c, unsigned int sequence) {
    xcb_get_selection_owner_cookie_t cookie = { sequence };
    xcb_generic_error_t *e = NULL;
    xcb_get_selection_owner_reply_t *r = xcb_get_selection_owner_reply(c, cookie, &e);
    free(e);
    Window owner = r ? r->owner : 0;
    free(r);
    return owner;
}

Window xhud_selection_owner_take(Display *dpy, unsigned int sequence) {
    return take_selection_owner(XGetXCBConnection(dpy), sequence);
}

static unsigned int window_name_send(xcb_connection_t *c, Window window) {
    return xcb_get_property(c, 0, (xcb_window_t)window, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 0, 16).sequence;
}

unsigned int xhud_window_name_send(Display *dpy, Window window) {
    return window_name_send(XGetXCBConnection(dpy), window);
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

/* GE's, XFixes' and XRandR's requests that go with the first questions. The versions' answers
 * are not read: XFIXES wants its version asked before its other requests, and GE's is the
 * question libXext would have asked (and waited for) itself. */
enum { geQueryVersion = 0, fixesQueryVersion = 0, fixesSelectSelectionInput = 2, randrSelectInput = 4 };

/* Checked, and the answer (or error) dropped: while XOpenDisplay runs, an error given to Xlib
 * would reach its default handler, which exits. */
static void send_raw(xcb_connection_t *c, xcb_extension_t *ext, uint8_t opcode, int isvoid, void *body, size_t size) {
    xcb_protocol_request_t request = { .count = 1, .ext = ext, .opcode = opcode, .isvoid = isvoid };
    struct iovec parts[3] = { { 0, 0 }, { 0, 0 }, { body, size } };
    xcb_discard_reply(c, xcb_send_request(c, XCB_REQUEST_CHECKED, parts + 2, &request));
}

static int present(xcb_connection_t *c, int index) {
    const xcb_query_extension_reply_t *r = xcb_get_extension_data(c, &known[index]);
    return r && r->present;
}

static void ask(xcb_connection_t *c, XHUDFirstQuestions *q, int screen) {
    const xcb_setup_t *setup = xcb_get_setup(c);
    if (!setup) return;
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(setup);
    for (int i = 0; i < screen && it.rem; i++) xcb_screen_next(&it);
    if (!it.rem) return;
    xcb_window_t root = it.data->root;
    q->asked = 1;
    q->screen = screen;

    /* One round trip: every extension, every atom (XOpenDisplay's BIG-REQUESTS among them). */
    xcb_prefetch_extension_data(c, &xcb_big_requests_id);
    for (int i = 0; i < knownCount; i++) xcb_prefetch_extension_data(c, &known[i]);
    char selection[32];
    snprintf(selection, sizeof selection, "_NET_WM_CM_S%d", screen);
    /* More names than fit are interned when first used instead (X11Display.atom). */
    int named = q->atomCount < 0 ? 0 : q->atomCount < XHUD_FIRST_ATOMS - 1 ? q->atomCount : XHUD_FIRST_ATOMS - 1;
    int n = named + 1;
    xcb_intern_atom_cookie_t cookies[XHUD_FIRST_ATOMS];
    for (int i = 0; i < n; i++) {
        const char *name = i < named ? q->atomNames[i] : selection;
        cookies[i] = xcb_intern_atom(c, 0, (uint16_t)strlen(name), name);
    }
    for (int i = 0; i < n; i++) {
        xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(c, cookies[i], NULL);
        q->atoms[i] = r ? r->atom : 0;
        free(r);
    }
    xcb_atom_t cm = (xcb_atom_t)q->atoms[n - 1];

    /* Sent with the next round trip. The root's events are selected before anything about the
     * root is asked: an answer stays true until an event says otherwise. */
    uint32_t mask = (uint32_t)q->rootEventMask;
    xcb_discard_reply(c, xcb_change_window_attributes_checked(c, root, XCB_CW_EVENT_MASK, &mask).sequence);
    if (present(c, ge)) {
        struct { uint8_t major, minor; uint16_t length; uint16_t major_version, minor_version; } body = { 0, 0, 0, 1, 0 };
        send_raw(c, &known[ge], geQueryVersion, 0, &body, sizeof body);
    }
    if (present(c, xfixes)) {
        struct { uint8_t major, minor; uint16_t length; uint32_t major_version, minor_version; } version = { 0, 0, 0, 5, 0 };
        send_raw(c, &known[xfixes], fixesQueryVersion, 0, &version, sizeof version);
        if (cm) {
            /* SetSelectionOwnerNotify, SelectionWindowDestroyNotify, SelectionClientCloseNotify. */
            struct { uint8_t major, minor; uint16_t length; uint32_t window, selection, mask; } select = { 0, 0, 0, root, cm, 7 };
            send_raw(c, &known[xfixes], fixesSelectSelectionInput, 1, &select, sizeof select);
        }
    }
    if (present(c, randr)) {
        /* ScreenChangeNotify, CrtcChangeNotify, OutputChangeNotify. */
        struct { uint8_t major, minor; uint16_t length; uint32_t window; uint16_t enable, pad; } select = { 0, 0, 0, root, 7, 0 };
        send_raw(c, &known[randr], randrSelectInput, 1, &select, sizeof select);
    }
    if (cm) q->owner = xcb_get_selection_owner(c, cm).sequence;
    xcb_flush(c);
}

static __thread XHUDFirstQuestions *opening;

int xhud_opening(xcb_connection_t *c) {
    XHUDFirstQuestions *q = opening;
    if (!q || q->asked) return 0;
    /* The screen XOpenDisplay opens: the one its name (or $DISPLAY) gives. */
    char *host = NULL;
    int number = 0, screen = 0;
    if (!xcb_parse_display(q->name, &host, &number, &screen)) screen = 0;
    free(host);
    ask(c, q, screen);
    return q->asked;
}

Display *xhud_open_display(XHUDFirstQuestions *q) {
    q->asked = 0;
    q->owner = 0;
    q->earlyOwner = 0;
    q->ownerName = 0;
    opening = q;
    Display *d = XOpenDisplay(q->name);
    opening = NULL;
    if (!d) return NULL;
    xcb_connection_t *c = XGetXCBConnection(d);
    if (!q->asked) ask(c, q, XDefaultScreen(d));
    if (q->owner) {
        /* In xhud-host its answer came with XOpenDisplay's last one. */
        q->earlyOwner = take_selection_owner(c, q->owner);
        q->owner = 0;
        if (q->earlyOwner) q->ownerName = window_name_send(c, q->earlyOwner);
    }
    return d;
}
