#include "CXFixes.h"
#include "CXPrefetch.h"
#include <X11/Xlibint.h>
#include <X11/extensions/Xfixes.h>
#include <X11/extensions/xfixesproto.h>

static int opcode(Display *dpy, int *event) {
    int major = 0, first = 0, error = 0;
    if (!xhud_query_extension(dpy, "XFIXES", &major, &first, &error)) return 0;
    if (event) *event = first;
    return major;
}

static Bool selection_notify(Display *dpy, XEvent *event, xEvent *wire) {
    xXFixesSelectionNotifyEvent *w = (xXFixesSelectionNotifyEvent *)wire;
    XFixesSelectionNotifyEvent *e = (XFixesSelectionNotifyEvent *)event;
    e->type = w->type & 0x7f;
    e->subtype = w->subtype;
    e->serial = _XSetLastRequestRead(dpy, (xGenericReply *)wire);
    e->send_event = (w->type & 0x80) != 0;
    e->display = dpy;
    e->window = w->window;
    e->owner = w->owner;
    e->selection = w->selection;
    e->timestamp = w->timestamp;
    e->selection_timestamp = w->selectionTimestamp;
    return True;
}

int xhud_fixes_event_base(Display *dpy) {
    int event = 0;
    if (!opcode(dpy, &event)) return -1;
    XESetWireToEvent(dpy, event + XFixesSelectionNotify, selection_notify);
    return event;
}

XID xhud_fixes_create_region(Display *dpy, XRectangle *rects, int count) {
    int major = opcode(dpy, NULL);
    if (!major) return 0;
    xXFixesCreateRegionReq *req;
    LockDisplay(dpy);
    GetReq(XFixesCreateRegion, req);
    req->reqType = major;
    req->xfixesReqType = X_XFixesCreateRegion;
    XID region = req->region = XAllocID(dpy);
    long length = (long)count << 1;
    SetReqLen(req, length, length);
    Data16(dpy, (short *)rects, length << 2);
    UnlockDisplay(dpy);
    SyncHandle();
    return region;
}

void xhud_fixes_destroy_region(Display *dpy, XID region) {
    int major = opcode(dpy, NULL);
    if (!major || !region) return;
    xXFixesDestroyRegionReq *req;
    LockDisplay(dpy);
    GetReq(XFixesDestroyRegion, req);
    req->reqType = major;
    req->xfixesReqType = X_XFixesDestroyRegion;
    req->region = region;
    UnlockDisplay(dpy);
    SyncHandle();
}

void xhud_fixes_set_window_shape_region(Display *dpy, Window window, int kind, int x, int y, XID region) {
    int major = opcode(dpy, NULL);
    if (!major) return;
    xXFixesSetWindowShapeRegionReq *req;
    LockDisplay(dpy);
    GetReq(XFixesSetWindowShapeRegion, req);
    req->reqType = major;
    req->xfixesReqType = X_XFixesSetWindowShapeRegion;
    req->dest = window;
    req->destKind = kind;
    req->xOff = x;
    req->yOff = y;
    req->region = region;
    UnlockDisplay(dpy);
    SyncHandle();
}
