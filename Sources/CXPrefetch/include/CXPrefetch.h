#ifndef CXPREFETCH_H
#define CXPREFETCH_H
/*
 * Questions to the X server sent without waiting for their answers, through the XCB connection
 * under Xlib's, so that a cold server waits on one round trip for many of them instead of one
 * each: over `ssh -X`, every round trip on the way to the first frame is the link's latency.
 *
 * Xlib's extension libraries (Xrender, Xfixes, Xrandr, Xdamage, Xext's MIT-SHM) each ask
 * QueryExtension and wait, one after another, the first time they are used. XCB keeps every
 * connection's answers (`xcb_get_extension_data`) and can ask for many at once
 * (`xcb_prefetch_extension_data`). `xhud_query_extension` answers from XCB's answers; where
 * xhud-host defines Xlib's `XQueryExtension` with it (CXQueryExtension), the libraries' own
 * questions are answered from them too, and `xhud_extensions_prefetch` asks them all at once.
 */
#include <X11/Xlib.h>

/* Sends QueryExtension for every extension xhud uses, without waiting (the answers are read
 * with the next reply anything waits for). */
void xhud_extensions_prefetch(Display *dpy);

/* XQueryExtension's contract, answered from XCB's per-connection answers for the extensions
 * xhud uses (asked once, or prefetched), from Xlib's own for every other. */
Bool xhud_query_extension(Display *dpy, const char *name, int *major_opcode, int *first_event, int *first_error);

/* GetSelectionOwner, sent without waiting; returns the request's sequence number. */
unsigned int xhud_selection_owner_send(Display *dpy, Atom selection);
/* Its answer (waiting for it if it has not come): the owner, 0 when none or on an error. */
Window xhud_selection_owner_take(Display *dpy, unsigned int sequence);

/* A window's WM_NAME (type STRING, at most 63 bytes, as XFetchName reads it), sent without
 * waiting. */
unsigned int xhud_window_name_send(Display *dpy, Window window);
/* Its answer into `out` (NUL-terminated); the length, or -1 when the window has none or is gone. */
int xhud_window_name_take(Display *dpy, unsigned int sequence, char *out, int capacity);

/* An XRandR monitor as GetMonitors describes it. */
typedef struct {
    Atom name;
    int primary;
    int x, y, width, height;
} XHUDMonitor;

/* XRandR's GetMonitors (the active ones) of `root`, sent without waiting; 0 when the display
 * has no XRandR (nothing was sent). */
unsigned int xhud_monitors_send(Display *dpy, Window root);
/* Its answer: every monitor, in an array to free() (NULL when there is none or on an error),
 * their number in `count`. */
XHUDMonitor *xhud_monitors_take(Display *dpy, unsigned int sequence, int *count);

/* Forgets an answer that is no longer wanted (XCB would keep it otherwise). */
void xhud_reply_discard(Display *dpy, unsigned int sequence);

#endif
