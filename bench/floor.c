/*
 * floor: the fastest a HUD can reasonably appear on X11, to measure xhud against.
 *
 * Opens the display, creates an override-redirect 32-bit ARGB window centred on the screen,
 * maps it and paints a rounded dark bezel, a ring and one line of text ("Loading") with Cairo
 * right after XMapWindow (offscreen, then shown in one operation), flushes, then sleeps in its
 * event loop (repainting on Expose) until it is killed. No toolkit, no font configuration beyond Cairo's toy text API.
 *
 * The window has no background (None), as a HUD that must not flash should: with a background
 * pixel, an X server without a compositor shows a black square at the map, before Cairo has
 * drawn anything, and a first-frame watcher would count that square as the floor's first frame.
 *
 * Build: cc -O2 -o floor floor.c $(pkg-config --cflags --libs x11 cairo)
 * Usage: floor [LABEL]
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <cairo.h>
#include <cairo-xlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define BEZEL_W 120
#define BEZEL_H 120
#define RADIUS 10.0

static void rounded(cairo_t *cr, double x, double y, double w, double h, double r) {
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
    cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
    cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
    cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
}

static void paint(cairo_surface_t *s, const char *label) {
    cairo_t *cr = cairo_create(s);
    /* The frame is drawn offscreen and shown whole: the first pixels on screen are the HUD with
     * its text, not a bezel that waits for fontconfig (several ms) before its label appears. */
    cairo_push_group(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_set_source_rgba(cr, 0, 0, 0, 0);
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);

    rounded(cr, 0, 0, BEZEL_W, BEZEL_H, RADIUS);
    cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, 0.82);
    cairo_fill(cr);

    /* A ring (track + a quarter arc), as an annular / indeterminate indicator. */
    double cx = BEZEL_W / 2.0, cy = 20 + 18.5;
    cairo_set_line_width(cr, 2.0);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.1);
    cairo_arc(cr, cx, cy, 17, 0, 2 * M_PI);
    cairo_stroke(cr);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
    cairo_arc(cr, cx, cy, 17, -M_PI / 2, 0);
    cairo_stroke(cr);

    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 16);
    cairo_text_extents_t te;
    cairo_text_extents(cr, label, &te);
    cairo_move_to(cr, cx - te.width / 2 - te.x_bearing, 20 + 37 + 4 + 16);
    cairo_show_text(cr, label);

    cairo_pop_group_to_source(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_flush(s);
}

int main(int argc, char **argv) {
    const char *label = argc > 1 ? argv[1] : "Loading";
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        fprintf(stderr, "floor: cannot open display\n");
        return 3;
    }
    int screen = DefaultScreen(dpy);
    Window root = RootWindow(dpy, screen);

    XVisualInfo vi;
    Visual *visual;
    int depth;
    Colormap cmap;
    if (XMatchVisualInfo(dpy, screen, 32, TrueColor, &vi)) {
        visual = vi.visual;
        depth = 32;
        cmap = XCreateColormap(dpy, root, visual, AllocNone);
    } else {
        visual = DefaultVisual(dpy, screen);
        depth = DefaultDepth(dpy, screen);
        cmap = DefaultColormap(dpy, screen);
    }

    XSetWindowAttributes a;
    memset(&a, 0, sizeof a);
    a.override_redirect = True;
    a.colormap = cmap;
    a.border_pixel = 0;
    a.background_pixmap = None;
    a.event_mask = ExposureMask;
    int x = (DisplayWidth(dpy, screen) - BEZEL_W) / 2;
    int y = (DisplayHeight(dpy, screen) - BEZEL_H) / 2;
    Window w = XCreateWindow(dpy, root, x, y, BEZEL_W, BEZEL_H, 0, depth, InputOutput, visual,
                             CWOverrideRedirect | CWColormap | CWBorderPixel | CWBackPixmap | CWEventMask, &a);
    XClassHint ch = {"floor", "floor"};
    XSetClassHint(dpy, w, &ch);

    cairo_surface_t *s = cairo_xlib_surface_create(dpy, w, visual, BEZEL_W, BEZEL_H);
    XMapWindow(dpy, w);
    paint(s, label);
    XFlush(dpy);

    for (;;) {
        XEvent ev;
        XNextEvent(dpy, &ev);
        if (ev.type == Expose && ev.xexpose.count == 0) {
            paint(s, label);
            XFlush(dpy);
        }
    }
}
