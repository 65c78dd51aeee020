#ifndef CXQUERYEXTENSION_H
#define CXQUERYEXTENSION_H
/* Linked into xhud-host only, which exports it: Xlib's XQueryExtension, for every library of the
 * process, answered by `xhud_query_extension` (CXPrefetch), from the answers XCB asked for at
 * once. Nothing to call. */
#endif
