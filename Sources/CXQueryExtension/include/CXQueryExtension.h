#ifndef CXQUERYEXTENSION_H
#define CXQUERYEXTENSION_H
/* Linked into xhud-host only, which exports them for every library of the process: Xlib's
 * XQueryExtension, answered by `xhud_query_extension` (CXPrefetch) from the answers XCB asked
 * for at once, and XCB's xcb_get_maximum_request_length, which sends a connection's first
 * questions (`xhud_open_display`) while XOpenDisplay waits. Nothing to call. */
#endif
