/*
 * firstframe: how long from exec of a command until its first frame is on screen.
 *
 *   firstframe [--point X,Y | --region WxH+X+Y | --auto[=WxH]] [--bg RRGGBB] [--timeout MS] [--from-fork]
 *              [--settle MS] [--exit-ok] [--stdin-text TEXT] -- CMD [ARGS...]
 *       Selects SubstructureNotify on the root window, forks and execs CMD (in its own process
 *       group), waits for the first MapNotify of a child of the root, then polls XGetImage of
 *       the point (default: the screen centre) or region every ~0.5 ms until any pixel differs
 *       from the background, and prints "FRAME_MS MAP_MS" (milliseconds since just before
 *       fork) on stdout. Then kills the command's process group (SIGTERM, then SIGKILL).
 *       --auto watches the area of the first mapped top-level InputOutput window larger than
 *       2x2 instead (at most WxH around its centre, default 320x200), for clients whose window
 *       lands anywhere; the whole screen must show the background before the run. It says on
 *       stderr where the first changed pixel was ("first change at X,Y").
 *       --from-fork: the region (--point or --region) is polled from the fork on, every ~0.25 ms,
 *       as a person looks at the place where the window will appear, and MapNotify is only noted
 *       (MAP_MS -1 when none came): every client is watched alike, also while it works between
 *       its map and its first drawing (waiting for the map first, then polling a large region,
 *       took CPU from a client still drawing and none from one that maps and draws together).
 *       --exit-ok: the command exiting with status 0 before its frame is no failure (a client
 *       such as notify-send that asks a running daemon to draw).
 *       --stdin-text TEXT: the command's stdin is a pipe holding TEXT whose write end stays
 *       open until the command is killed (a progress reader that never sees end of input);
 *       otherwise stdin is /dev/null.
 *       The background is --bg, or what the point shows before the run; with --bg the run first
 *       waits (up to --settle ms, default 3000) until the screen shows that colour again, so
 *       that back-to-back runs do not see the previous run's leftovers.
 *       --cmd-display NAME: the command gets DISPLAY=NAME (e.g. a latency proxy's 127.0.0.1:N)
 *       while firstframe itself watches its own DISPLAY (the real screen).
 *       Exit 0 on success; 1 on timeout (prints "timeout") or when the command exits before a
 *       frame (prints "exited STATUS"); 2 on usage errors; 3 without a display.
 *
 *   firstframe setbg RRGGBB
 *       Sets the root background to a solid colour through a pixmap that is published in
 *       _XROOTPMAP_ID and _XSETROOT_ID (kept with RetainPermanent), so that a compositing
 *       manager such as xcompmgr paints the same colour (with a plain `xsetroot -solid` it
 *       paints its default grey).
 *
 *   firstframe waitcm MS
 *       Exits 0 as soon as a compositing manager owns _NET_WM_CM_S<screen>, 1 after MS ms.
 *
 * Build: cc -O2 -o firstframe firstframe.c $(pkg-config --cflags --libs x11)
 */
#define _POSIX_C_SOURCE 200809L
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void sleep_us(long us) {
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {}
}

static int parse_rgb(const char *s, unsigned *r, unsigned *g, unsigned *b) {
    if (*s == '#') s++;
    if (strlen(s) != 6) return 0;
    char *end;
    unsigned long v = strtoul(s, &end, 16);
    if (*end) return 0;
    *r = (v >> 16) & 0xff; *g = (v >> 8) & 0xff; *b = v & 0xff;
    return 1;
}

/* A pixel value for an 8-bit-per-channel colour in a TrueColor visual. */
static unsigned long rgb_to_pixel(Visual *v, unsigned r, unsigned g, unsigned b) {
    unsigned long p = 0;
    unsigned long masks[3] = {v->red_mask, v->green_mask, v->blue_mask};
    unsigned vals[3] = {r, g, b};
    for (int i = 0; i < 3; i++) {
        unsigned long m = masks[i];
        if (!m) continue;
        int shift = 0, bits = 0;
        while (!((m >> shift) & 1)) shift++;
        while ((m >> (shift + bits)) & 1) bits++;
        unsigned long c = bits >= 8 ? (unsigned long)vals[i] << (bits - 8) : vals[i] >> (8 - bits);
        p |= (c << shift) & m;
    }
    return p;
}

static int cmd_setbg(Display *dpy, const char *colour) {
    unsigned r, g, b;
    if (!parse_rgb(colour, &r, &g, &b)) {
        fprintf(stderr, "firstframe: bad colour %s (want RRGGBB)\n", colour);
        return 2;
    }
    int scr = DefaultScreen(dpy);
    Window root = RootWindow(dpy, scr);
    Pixmap pm = XCreatePixmap(dpy, root, 64, 64, DefaultDepth(dpy, scr));
    GC gc = XCreateGC(dpy, pm, 0, NULL);
    XSetForeground(dpy, gc, rgb_to_pixel(DefaultVisual(dpy, scr), r, g, b));
    XFillRectangle(dpy, pm, gc, 0, 0, 64, 64);
    XFreeGC(dpy, gc);
    XSetWindowBackgroundPixmap(dpy, root, pm);
    XClearWindow(dpy, root);
    Atom props[2] = {XInternAtom(dpy, "_XROOTPMAP_ID", False), XInternAtom(dpy, "_XSETROOT_ID", False)};
    for (int i = 0; i < 2; i++)
        XChangeProperty(dpy, root, props[i], XA_PIXMAP, 32, PropModeReplace, (unsigned char *)&pm, 1);
    XSetCloseDownMode(dpy, RetainPermanent);
    XSync(dpy, False);
    XCloseDisplay(dpy);
    return 0;
}

static int cmd_waitcm(Display *dpy, const char *ms) {
    char name[32];
    snprintf(name, sizeof name, "_NET_WM_CM_S%d", DefaultScreen(dpy));
    Atom a = XInternAtom(dpy, name, False);
    double deadline = now_ms() + atof(ms);
    while (now_ms() < deadline) {
        if (XGetSelectionOwner(dpy, a) != None) return 0;
        sleep_us(10000);
    }
    return 1;
}

static void usage(void) {
    fprintf(stderr,
            "usage: firstframe [--point X,Y | --region WxH+X+Y | --auto[=WxH]] [--bg RRGGBB] [--timeout MS] [--settle MS]\n"
            "                  [--exit-ok] [--from-fork] [--stdin-text TEXT] [--cmd-display NAME] -- CMD [ARGS...]\n"
            "       firstframe setbg RRGGBB\n"
            "       firstframe waitcm MS\n");
}

static int rx, ry, rw = 1, rh = 1;

static int changed_x = -1, changed_y = -1; /* the first pixel found changed, screen coordinates */

/* Whether every pixel of the region equals bg. */
static int region_is(Display *dpy, Window root, unsigned long bg, unsigned long mask) {
    XImage *im = XGetImage(dpy, root, rx, ry, rw, rh, AllPlanes, ZPixmap);
    if (!im) return 0;
    int same = 1;
    for (int y = 0; y < rh && same; y++)
        for (int x = 0; x < rw; x++)
            if ((XGetPixel(im, x, y) & mask) != bg) { same = 0; changed_x = rx + x; changed_y = ry + y; break; }
    XDestroyImage(im);
    return same;
}

static int ignore_x_error(Display *d, XErrorEvent *e) { (void)d; (void)e; return 0; }

static int reaped; /* the command was already waited for */

static void kill_group(pid_t pid) {
    if (reaped) { kill(-pid, SIGKILL); return; }
    kill(-pid, SIGTERM);
    for (int i = 0; i < 200; i++) {
        if (waitpid(pid, NULL, WNOHANG) == pid) { kill(-pid, SIGKILL); return; }
        sleep_us(10000);
    }
    kill(-pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

int main(int argc, char **argv) {
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        fprintf(stderr, "firstframe: cannot open display\n");
        return 3;
    }
    if (argc == 3 && !strcmp(argv[1], "setbg")) return cmd_setbg(dpy, argv[2]);
    if (argc == 3 && !strcmp(argv[1], "waitcm")) return cmd_waitcm(dpy, argv[2]);

    int scr = DefaultScreen(dpy);
    Window root = RootWindow(dpy, scr);
    Visual *vis = DefaultVisual(dpy, scr);
    unsigned long mask = vis->red_mask | vis->green_mask | vis->blue_mask;
    rx = DisplayWidth(dpy, scr) / 2;
    ry = DisplayHeight(dpy, scr) / 2;
    double timeout = 10000, settle = 3000;
    int have_bg = 0, autoreg = 0, exit_ok = 0, from_fork = 0, capw = 320, caph = 200;
    const char *stdin_text = NULL, *cmd_display = NULL;
    unsigned long bg = 0;

    int i = 1;
    for (; i < argc; i++) {
        if (!strcmp(argv[i], "--")) { i++; break; }
        if (!strcmp(argv[i], "--auto")) { autoreg = 1; continue; }
        if (!strncmp(argv[i], "--auto=", 7)) {
            if (sscanf(argv[i] + 7, "%dx%d", &capw, &caph) != 2 || capw < 1 || caph < 1) { usage(); return 2; }
            autoreg = 1;
            continue;
        }
        if (!strcmp(argv[i], "--exit-ok")) { exit_ok = 1; continue; }
        if (!strcmp(argv[i], "--from-fork")) { from_fork = 1; continue; }
        if (i + 1 >= argc) { usage(); return 2; }
        if (!strcmp(argv[i], "--point")) {
            if (sscanf(argv[++i], "%d,%d", &rx, &ry) != 2) { usage(); return 2; }
            rw = rh = 1;
        } else if (!strcmp(argv[i], "--region")) {
            if (sscanf(argv[++i], "%dx%d+%d+%d", &rw, &rh, &rx, &ry) != 4 || rw < 1 || rh < 1) { usage(); return 2; }
        } else if (!strcmp(argv[i], "--bg")) {
            unsigned r, g, b;
            if (!parse_rgb(argv[++i], &r, &g, &b)) { usage(); return 2; }
            bg = rgb_to_pixel(vis, r, g, b);
            have_bg = 1;
        } else if (!strcmp(argv[i], "--timeout")) {
            timeout = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--settle")) {
            settle = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--stdin-text")) {
            stdin_text = argv[++i];
        } else if (!strcmp(argv[i], "--cmd-display")) {
            cmd_display = argv[++i];
        } else { usage(); return 2; }
    }
    if (i >= argc || (from_fork && autoreg)) { usage(); return 2; }
    char **cmd = argv + i;
    XSetErrorHandler(ignore_x_error);
    if (autoreg) { /* before the run the whole screen must show the background */
        rx = 0; ry = 0; rw = DisplayWidth(dpy, scr); rh = DisplayHeight(dpy, scr);
    }

    if (have_bg) {
        double until = now_ms() + settle;
        while (!region_is(dpy, root, bg, mask)) {
            if (now_ms() > until) {
                fprintf(stderr, "firstframe: the screen does not show the background colour before the run\n");
                return 1;
            }
            sleep_us(5000);
        }
    } else {
        XImage *im = XGetImage(dpy, root, rx, ry, 1, 1, AllPlanes, ZPixmap);
        if (!im) { fprintf(stderr, "firstframe: cannot read the screen\n"); return 1; }
        bg = XGetPixel(im, 0, 0) & mask;
        XDestroyImage(im);
        if (!region_is(dpy, root, bg, mask)) {
            fprintf(stderr, "firstframe: the region is not one colour before the run\n");
            return 1;
        }
    }

    XSelectInput(dpy, root, SubstructureNotifyMask);
    XSync(dpy, True);

    int feed[2] = {-1, -1};
    if (stdin_text) {
        if (pipe(feed) != 0) { perror("pipe"); return 1; }
        size_t n = strlen(stdin_text);
        if (n && write(feed[1], stdin_text, n) != (ssize_t)n) { perror("write"); return 1; }
        signal(SIGPIPE, SIG_IGN);
    }

    fflush(NULL);
    double t0 = now_ms();
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); return 1; }
    if (pid == 0) {
        setpgid(0, 0);
        close(ConnectionNumber(dpy));
        /* The command's stdin and stdout are not ours: /dev/null (a HUD may read progress from a
           pipe), or the pipe holding --stdin-text. */
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) { dup2(null, 0); dup2(null, 1); if (null > 1) close(null); }
        if (feed[0] >= 0) { dup2(feed[0], 0); close(feed[0]); close(feed[1]); }
        if (cmd_display) setenv("DISPLAY", cmd_display, 1);
        execvp(cmd[0], cmd);
        fprintf(stderr, "firstframe: cannot exec %s: %s\n", cmd[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid); /* both sides, so that kill(-pid) works whoever runs first */
    if (feed[0] >= 0) close(feed[0]);

    double deadline = t0 + timeout, t_map = -1, t_frame = -1;
    int fd = ConnectionNumber(dpy), status;
    /* --from-fork: the region from now on, the map only noted. */
    while (from_fork && t_frame < 0) {
        while (XPending(dpy)) {
            XEvent ev;
            XNextEvent(dpy, &ev);
            if (ev.type == MapNotify && t_map < 0) t_map = now_ms();
        }
        if (!region_is(dpy, root, bg, mask)) { t_frame = now_ms(); break; }
        if (now_ms() > deadline) { printf("timeout\n"); kill_group(pid); return 1; }
        if (!reaped && waitpid(pid, &status, WNOHANG) == pid) {
            reaped = 1;
            if (!(exit_ok && WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
                printf("exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
                return 1;
            }
        }
        sleep_us(250);
    }
    /* A map that came with the image's reply is in the queue: it was before the frame. */
    while (from_fork && t_map < 0 && QLength(dpy)) {
        XEvent ev;
        XNextEvent(dpy, &ev);
        if (ev.type == MapNotify) t_map = t_frame;
    }
    if (from_fork) {
        printf("%.3f %.3f\n", t_frame - t0, t_map < 0 ? -1.0 : t_map - t0);
        fflush(stdout);
        kill_group(pid);
        if (feed[1] >= 0) close(feed[1]);
        XCloseDisplay(dpy);
        return 0;
    }
    /* Wait for the first MapNotify of a top-level window (with --auto: of one to watch). */
    int have_region = !autoreg;
    while (t_map < 0 || !have_region) {
        while (XPending(dpy)) {
            XEvent ev;
            XNextEvent(dpy, &ev);
            if (ev.type != MapNotify) continue;
            if (t_map < 0) t_map = now_ms();
            XWindowAttributes wa;
            if (!have_region && XGetWindowAttributes(dpy, ev.xmap.window, &wa) && wa.class == InputOutput &&
                wa.width > 2 && wa.height > 2) {
                int x0 = wa.x, y0 = wa.y, x1 = wa.x + wa.width + 2 * wa.border_width,
                    y1 = wa.y + wa.height + 2 * wa.border_width;
                if (x0 < 0) x0 = 0;
                if (y0 < 0) y0 = 0;
                if (x1 > DisplayWidth(dpy, scr)) x1 = DisplayWidth(dpy, scr);
                if (y1 > DisplayHeight(dpy, scr)) y1 = DisplayHeight(dpy, scr);
                if (x1 - x0 < 1 || y1 - y0 < 1) continue; /* off screen */
                rw = x1 - x0 < capw ? x1 - x0 : capw;
                rh = y1 - y0 < caph ? y1 - y0 : caph;
                rx = x0 + (x1 - x0 - rw) / 2;
                ry = y0 + (y1 - y0 - rh) / 2;
                have_region = 1;
                fprintf(stderr, "firstframe: watching %dx%d+%d+%d\n", rw, rh, rx, ry);
            }
        }
        if (t_map >= 0 && have_region) break;
        if (!reaped && waitpid(pid, &status, WNOHANG) == pid) {
            reaped = 1;
            if (!(exit_ok && WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
                printf("exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
                return 1;
            }
        }
        double left = deadline - now_ms();
        if (left <= 0) { printf("timeout\n"); kill_group(pid); return 1; }
        fd_set fds;
        FD_ZERO(&fds);
        FD_SET(fd, &fds);
        struct timeval tv = {0, left > 5 ? 5000 : (long)(left * 1000)};
        select(fd + 1, &fds, NULL, NULL, &tv);
    }
    /* Then poll the pixels. */
    while (t_frame < 0) {
        if (!region_is(dpy, root, bg, mask)) { t_frame = now_ms(); break; }
        if (now_ms() > deadline) { printf("timeout\n"); kill_group(pid); return 1; }
        if (!reaped && waitpid(pid, &status, WNOHANG) == pid) {
            reaped = 1;
            if (!(exit_ok && WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
                printf("exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
                return 1;
            }
        }
        sleep_us(500);
    }
    printf("%.3f %.3f\n", t_frame - t0, t_map - t0);
    fprintf(stderr, "firstframe: first change at %d,%d\n", changed_x, changed_y);
    fflush(stdout);
    kill_group(pid);
    if (feed[1] >= 0) close(feed[1]);
    XCloseDisplay(dpy);
    return 0;
}
