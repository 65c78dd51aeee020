#ifndef CXFIXES_H
#define CXFIXES_H
/*
 * The few XFixes requests xhud sends, through Xlib, and the decoding of its selection event:
 * libXfixes asks the extension's version and waits for the answer the first time it is used,
 * a round trip on a cold server's way to its first frame. The version is asked with the
 * connection's first questions instead (CXPrefetch), and never waited for: the server only
 * needs it asked before the first of these requests.
 */
#include <X11/Xlib.h>

/* XFixes' first event number, -1 when the display has no XFixes. Registers (again, on a later
 * call) the decoding of SelectionNotify, delivered with its XFixesSelectionNotifyEvent fields. */
int xhud_fixes_event_base(Display *dpy);

/* A region of `count` rectangles (0: empty); 0 when the display has no XFixes. */
XID xhud_fixes_create_region(Display *dpy, XRectangle *rects, int count);
void xhud_fixes_destroy_region(Display *dpy, XID region);
/* `kind`: ShapeBounding or ShapeInput; `region` 0 resets the shape. */
void xhud_fixes_set_window_shape_region(Display *dpy, Window window, int kind, int x, int y, XID region);

#endif
