#include "CXQueryExtension.h"
#include "CXPrefetch.h"

/* Xlib's extension libraries call XQueryExtension through their PLT (so does Xlib's own
 * XInitExtension): this definition, exported by the executable, is the one they find. */
Bool XQueryExtension(Display *dpy, _Xconst char *name, int *major_opcode, int *first_event, int *first_error) {
    return xhud_query_extension(dpy, name, major_opcode, first_event, first_error);
}
