/*
 * vblank: the least an animation can cost the X server, to measure xhud's spinner against.
 *
 * Anything that changes on screen at the refresh rate wakes the X server once a refresh. This
 * client makes it do nothing more: a 1x1 override-redirect window, two 1x1 pixmaps presented in
 * turn with the Present extension, one at each MSC, a turn of 60 queued at once and queued again
 * once a second (no reply asked, no event selected; this process sleeps in between). What the
 * X server spends meanwhile is its cost of waking at each refresh and copying a pixel: the part
 * of a spinner's figure that no HUD can take away.
 *
 * Build: cc -O2 -o vblank vblank.c ../Sources/CPresent/present.c -I../Sources/CPresent/include \
 *        $(pkg-config --cflags --libs x11)
 * Usage: vblank [SIZE]   (the window's side, 1 by default)
 */
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "CPresent.h"

int main(int argc, char **argv) {
    int size = argc > 1 ? atoi(argv[1]) : 1;
    if (size < 1 || size > 4096) {
        fprintf(stderr, "vblank: SIZE must be 1-4096\n");
        return 2;
    }
    Display *d = XOpenDisplay(NULL);
    if (!d) {
        fprintf(stderr, "vblank: cannot open the display\n");
        return 1;
    }
    int op;
    if (!xhud_present_query(d, &op)) {
        fprintf(stderr, "vblank: the display has no Present extension\n");
        return 1;
    }
    XSetWindowAttributes a = {0};
    a.override_redirect = True;
    Window w = XCreateWindow(d, DefaultRootWindow(d), 0, 0, size, size, 0, CopyFromParent, InputOutput,
                             CopyFromParent, CWOverrideRedirect, &a);
    XMapWindow(d, w);
    GC gc = XCreateGC(d, w, 0, NULL);
    Pixmap p[2];
    for (int i = 0; i < 2; i++) {
        p[i] = XCreatePixmap(d, w, size, size, DefaultDepth(d, DefaultScreen(d)));
        XSetForeground(d, gc, i ? WhitePixel(d, DefaultScreen(d)) : BlackPixel(d, DefaultScreen(d)));
        XFillRectangle(d, p[i], gc, 0, 0, size, size);
    }
    for (;;) {
        /* Each step at the next MSC where msc % 60 == step, as xhud queues a spinner's turn; a
         * step still queued from the last turn is replaced by the X server, not shown twice. */
        for (int step = 0; step < 60; step++)
            xhud_present_pixmap(d, op, w, p[step & 1], 0, 0, 0, XHUD_PRESENT_OPTION_COPY, 0, 60, step);
        XFlush(d);
        sleep(1);
    }
}
