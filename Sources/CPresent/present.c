#include "CPresent.h"
#include <X11/Xlibint.h>
#include <X11/extensions/presentproto.h>
#include <stdlib.h>
#include <string.h>

static int registered_opcode = -1;

/* Xlib hands generic events to the extension that registered for them; without this, Present's
 * completion events would be dropped. */
static Bool wire_to_cookie(Display *dpy, XGenericEventCookie *cookie, xEvent *wire) {
    xGenericEvent *ge = (xGenericEvent *)wire;
    cookie->type = ge->type & 0x7f;
    cookie->serial = _XSetLastRequestRead(dpy, (xGenericReply *)ge);
    cookie->send_event = (ge->type & 0x80) != 0;
    cookie->display = dpy;
    cookie->extension = ge->extension;
    cookie->evtype = ge->evtype;
    cookie->data = NULL;
    if (ge->evtype != PresentCompleteNotify) return True;
    xPresentCompleteNotify *proto = (xPresentCompleteNotify *)ge;
    XHUDPresentComplete *c = malloc(sizeof *c);
    if (!c) return False;
    c->window = proto->window;
    c->serial = proto->serial;
    c->ust = proto->ust;
    c->msc = proto->msc;
    c->kind = proto->kind;
    c->mode = proto->mode;
    cookie->data = c;
    return True;
}

static Bool copy_cookie(Display *dpy, XGenericEventCookie *in, XGenericEventCookie *out) {
    (void)dpy;
    *out = *in;
    out->data = NULL;
    out->cookie = 0;
    if (in->data) {
        out->data = malloc(sizeof(XHUDPresentComplete));
        if (!out->data) return False;
        memcpy(out->data, in->data, sizeof(XHUDPresentComplete));
    }
    return True;
}

int xhud_present_query(Display *dpy, int *opcode) {
    int event, error;
    if (!XQueryExtension(dpy, PRESENT_NAME, opcode, &event, &error)) return 0;
    if (registered_opcode != *opcode) {
        XESetWireToEventCookie(dpy, *opcode, wire_to_cookie);
        XESetCopyEventCookie(dpy, *opcode, copy_cookie);
        registered_opcode = *opcode;
    }
    return 1;
}

XID xhud_alloc_id(Display *dpy) { return XAllocID(dpy); }

void xhud_present_select_input(Display *dpy, int opcode, XID eid, Window window, uint32_t mask) {
    xPresentSelectInputReq *req;
    LockDisplay(dpy);
    GetReq(PresentSelectInput, req);
    req->reqType = opcode;
    req->presentReqType = X_PresentSelectInput;
    req->eid = eid;
    req->window = window;
    req->eventMask = mask;
    UnlockDisplay(dpy);
    SyncHandle();
}

void xhud_present_notify_msc(Display *dpy, int opcode, Window window, uint32_t serial, uint64_t target,
                             uint64_t divisor, uint64_t remainder) {
    xPresentNotifyMSCReq *req;
    LockDisplay(dpy);
    GetReq(PresentNotifyMSC, req);
    req->reqType = opcode;
    req->presentReqType = X_PresentNotifyMSC;
    req->window = window;
    req->serial = serial;
    req->target_msc = target;
    req->divisor = divisor;
    req->remainder = remainder;
    UnlockDisplay(dpy);
    SyncHandle();
}

void xhud_present_pixmap(Display *dpy, int opcode, Window window, Pixmap pixmap, uint32_t serial,
                         int16_t x, int16_t y, uint32_t options, uint64_t target, uint64_t divisor, uint64_t remainder) {
    xPresentPixmapReq *req;
    LockDisplay(dpy);
    GetReq(PresentPixmap, req);
    req->reqType = opcode;
    req->presentReqType = X_PresentPixmap;
    req->window = window;
    req->pixmap = pixmap;
    req->serial = serial;
    req->valid = None;
    req->update = None;
    req->x_off = x;
    req->y_off = y;
    req->target_crtc = None;
    req->wait_fence = None;
    req->idle_fence = None;
    req->options = options;
    req->target_msc = target;
    req->divisor = divisor;
    req->remainder = remainder;
    UnlockDisplay(dpy);
    SyncHandle();
}

int xhud_present_complete(Display *dpy, XEvent *event, int opcode, XHUDPresentComplete *out) {
    XGenericEventCookie *cookie = &event->xcookie;
    if (event->type != GenericEvent || cookie->extension != opcode || cookie->evtype != PresentCompleteNotify) return 0;
    if (!XGetEventData(dpy, cookie)) return 0;
    int ok = cookie->data != NULL;
    if (ok) *out = *(XHUDPresentComplete *)cookie->data;
    XFreeEventData(dpy, cookie);
    return ok;
}
