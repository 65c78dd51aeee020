#ifndef CXPREFETCH_H
#define CXPREFETCH_H
/*
 * Questions to the X server sent without waiting for their answers, through the XCB connection
 * under Xlib's, so that a cold server waits on one round trip for many of them instead of one
 * each: over `ssh -X`, every round trip on the way to the first frame is the link's latency.
 *
 * Xlib's extension libraries (Xrender, Xrandr, Xdamage, Xext's MIT-SHM) each ask
 * QueryExtension and wait, one after another, the first time they are used. XCB keeps every
 * connection's answers (`xcb_get_extension_data`) and can ask for many at once
 * (`xcb_prefetch_extension_data`). `xhud_query_extension` answers from XCB's answers; where
 * xhud-host defines Xlib's `XQueryExtension` with it (CXQueryExtension), the libraries' own
 * questions are answered from them too, and `xhud_open_display` asks them all at once.
 */
#include <X11/Xlib.h>
#include <xcb/xcb.h>

/* The first questions of a connection, all sent before any answer is waited for: the
 * QueryExtension of every extension xhud uses and the atoms' InternAtom (one round trip
 * together), then, sent with the next one, the root's events (its own, XRandR's, the
 * compositor's selection), the versions XFixes and GE want asked before they are used, and the
 * compositor selection's owner. In xhud-host they go while XOpenDisplay waits on its own questions
 * (see CXQueryExtension), so that a cold server's first frame waits on none of them; elsewhere
 * right after. */
enum { XHUD_FIRST_ATOMS = 32 };
typedef struct {
    /* In: the display's name (NULL: $DISPLAY), the atoms to intern ("_NET_WM_CM_S<screen>" is
     * interned after them), the root's core event mask. */
    const char *name;
    const char *const *atomNames;
    int atomCount;
    long rootEventMask;
    /* Out: whether they were asked; the screen; the atoms (0 where the server gave none, or
     * past the first XHUD_FIRST_ATOMS - 1 names), the compositor's selection after them. The selection's owner while the connection opened (0: none)
     * and the sequence of its WM_NAME's question (0: not asked): Xlib drops the events that come
     * before their decoders are registered, once the display is open, so the owner is to be
     * asked again then; the name holds while the owner is the same. */
    int asked;
    int screen;
    Atom atoms[XHUD_FIRST_ATOMS];
    Window earlyOwner;
    unsigned int ownerName;
    unsigned int owner;   /* its question, while the connection opens */
} XHUDFirstQuestions;

/* XOpenDisplay(q->name), with `q`'s questions asked. NULL when the display cannot be opened. */
Display *xhud_open_display(XHUDFirstQuestions *q);

/* For CXQueryExtension's xcb_get_maximum_request_length, which XOpenDisplay calls once the
 * connection is set up: sends the questions of the connection that `xhud_open_display` opens on
 * this thread, and waits for the extensions' and atoms' answers (XOpenDisplay's next answer, for
 * BIG-REQUESTS, comes with them). 1 when it did, 0 when no such opening is under way. */
int xhud_opening(xcb_connection_t *c);

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
