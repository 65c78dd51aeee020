#ifndef CPRESENT_H
#define CPRESENT_H
/*
 * The few requests of the X Present extension xhud sends, through Xlib, and its completion
 * event: libXpresent is not needed (nor its headers), the protocol's own header is enough.
 * A spinner's frames are queued on the X server with them (see PresentedSpinner.swift).
 */
#include <X11/Xlib.h>
#include <stdint.h>

/* Whether the display has Present; `opcode` gets its major opcode. Registers the decoding of its
 * completion events on the display (once). One round trip. */
int xhud_present_query(Display *dpy, int *opcode);

/* A new resource id of the connection (Xlib's XAllocID is a macro). */
XID xhud_alloc_id(Display *dpy);

/* PresentSelectInput: completion events of `window` under the event id `eid` (0 mask: none). */
void xhud_present_select_input(Display *dpy, int opcode, XID eid, Window window, uint32_t mask);

/* PresentNotifyMSC: a completion event at the first MSC at or after `target` (0: now). */
void xhud_present_notify_msc(Display *dpy, int opcode, Window window, uint32_t serial, uint64_t target,
                             uint64_t divisor, uint64_t remainder);

/* PresentPixmap: `pixmap` copied into `window` at (x, y) at the next MSC where msc % divisor ==
 * remainder (target 0), with no fences, no region limits and no notifies. */
void xhud_present_pixmap(Display *dpy, int opcode, Window window, Pixmap pixmap, uint32_t serial,
                         int16_t x, int16_t y, uint32_t options, uint64_t target, uint64_t divisor, uint64_t remainder);

typedef struct {
    uint32_t window;
    uint32_t serial;
    uint64_t ust;
    uint64_t msc;
    uint8_t kind;
    uint8_t mode;
} XHUDPresentComplete;

/* When `event` is Present's CompleteNotify (of the extension with major `opcode`), fills `out`
 * and returns 1; 0 for any other event. */
int xhud_present_complete(Display *dpy, XEvent *event, int opcode, XHUDPresentComplete *out);

#define XHUD_PRESENT_COMPLETE_MASK 2   /* PresentCompleteNotifyMask */
#define XHUD_PRESENT_OPTION_COPY 2     /* PresentOptionCopy */

#endif
