/*
 * pixwatch: pixel snapshots and update latencies on an X screen, for bench/run.
 *
 *   pixwatch snap GEOM FILE
 *       Saves the pixels of the region GEOM (WxH+X+Y) of the root window to FILE (raw 32-bit
 *       words, RGB only).
 *   pixwatch diff GEOM FILE [TOL]
 *       Prints the bounding box (WxH+X+Y, screen coordinates) of the pixels of GEOM that now
 *       differ from FILE by more than TOL (default 0) in a channel, and their count; "none 0"
 *       when none do.
 *   pixwatch waiteq GEOM FILE TIMEOUT_MS [TOL]
 *       Waits until GEOM matches FILE (every channel within TOL, default 8); prints the
 *       milliseconds it took, or "timeout N" (N pixels still differ) and exits 1.
 *   pixwatch update GEOM [--until FILE] [--tol N] [--timeout MS] [--end] (--write PATH TEXT | -- CMD...)
 *       The warm-update watcher. Takes the region's pixels, then at t0 either opens PATH (a FIFO
 *       that a running client reads), writes TEXT and closes it (what `echo 50 > fifo` does in a
 *       shell), or forks and execs CMD (stdin and stdout /dev/null); then polls the region every
 *       ~0.25 ms until it matches FILE (--until: the new value is on screen) or, without
 *       --until, until any pixel differs from before. Prints "FIRST_MS MS RETURNED_MS":
 *       milliseconds from t0 to the first changed pixel, to the new value on screen (with
 *       --until; else the first change again), and to the command's exit (the write's
 *       return), or -1 when the command is still running 5 s later (with --end: SIGTERM to CMD as
 *       soon as the change is seen, for a client that stays, and -1). Exit 1 with "exited N" when CMD fails
 *       before the change, "timeout N" when it does not come (default 3000 ms).
 *   pixwatch flood SECONDS WORKERS LO HI -- CMD... %
 *       WORKERS parallel loops, each running CMD again and again for SECONDS with each argument
 *       "%" replaced by a random value in [LO, HI] outside [0.53, 0.57] (two decimals), waiting
 *       for each to exit. Prints "OK FAILED ELAPSED_S".
 *
 * Build: cc -O2 -o pixwatch pixwatch.c $(pkg-config --cflags --libs x11)
 */
#define _GNU_SOURCE
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void usage(void) {
    fprintf(stderr,
            "usage: pixwatch snap GEOM FILE\n"
            "       pixwatch diff GEOM FILE [TOL]\n"
            "       pixwatch waiteq GEOM FILE TIMEOUT_MS [TOL]\n"
            "       pixwatch update GEOM [--until FILE] [--tol N] [--timeout MS] [--end] (--write PATH TEXT | -- CMD...)\n"
            "       pixwatch flood SECONDS WORKERS LO HI -- CMD... %%\n");
}

static Display *dpy;
static Window root;
static unsigned long mask;
static int gx, gy, gw, gh;

static int parse_geom(const char *s) {
    return sscanf(s, "%dx%d+%d+%d", &gw, &gh, &gx, &gy) == 4 && gw > 0 && gh > 0;
}

/* The region's pixels, RGB only, row by row. */
static uint32_t *grab(void) {
    XImage *im = XGetImage(dpy, root, gx, gy, gw, gh, AllPlanes, ZPixmap);
    if (!im) return NULL;
    uint32_t *px = malloc(sizeof *px * gw * gh);
    for (int y = 0; y < gh; y++)
        for (int x = 0; x < gw; x++) px[y * gw + x] = XGetPixel(im, x, y) & mask;
    XDestroyImage(im);
    return px;
}

static int chan_close(uint32_t a, uint32_t b, int tol) {
    if (a == b) return 1;
    for (int s = 0; s < 32; s += 8) {
        int d = (int)((a >> s) & 0xff) - (int)((b >> s) & 0xff);
        if (d > tol || d < -tol) return 0;
    }
    return 1;
}

/* Pixels of a and b that differ by more than tol in a channel; their bounding box in *box. */
static long count_diff(const uint32_t *a, const uint32_t *b, int tol, int box[4]) {
    long n = 0;
    int x0 = gw, y0 = gh, x1 = -1, y1 = -1;
    for (int y = 0; y < gh; y++)
        for (int x = 0; x < gw; x++)
            if (!chan_close(a[y * gw + x], b[y * gw + x], tol)) {
                n++;
                if (x < x0) x0 = x;
                if (y < y0) y0 = y;
                if (x > x1) x1 = x;
                if (y > y1) y1 = y;
            }
    if (box) { box[0] = x0; box[1] = y0; box[2] = x1; box[3] = y1; }
    return n;
}

static uint32_t *load(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return NULL; }
    uint32_t *px = malloc(sizeof *px * gw * gh);
    size_t n = fread(px, sizeof *px, (size_t)gw * gh, f);
    fclose(f);
    if (n != (size_t)gw * gh) {
        fprintf(stderr, "pixwatch: %s does not hold %dx%d pixels\n", path, gw, gh);
        free(px);
        return NULL;
    }
    return px;
}

static int cmd_snap(const char *path) {
    uint32_t *px = grab();
    if (!px) { fprintf(stderr, "pixwatch: cannot read the screen\n"); return 1; }
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(px, sizeof *px, (size_t)gw * gh, f) != (size_t)gw * gh) { perror(path); return 1; }
    fclose(f);
    return 0;
}

static int cmd_diff(const char *path, int tol) {
    uint32_t *ref = load(path), *px = grab();
    if (!ref || !px) return 1;
    int box[4];
    long n = count_diff(px, ref, tol, box);
    if (n == 0) printf("none 0\n");
    else printf("%dx%d+%d+%d %ld\n", box[2] - box[0] + 1, box[3] - box[1] + 1, gx + box[0], gy + box[1], n);
    return 0;
}

static int cmd_waiteq(const char *path, double timeout, int tol) {
    uint32_t *ref = load(path);
    if (!ref) return 1;
    double t0 = now_ms();
    for (;;) {
        uint32_t *px = grab();
        long n = px ? count_diff(px, ref, tol, NULL) : -1;
        free(px);
        if (n == 0) { printf("%.3f\n", now_ms() - t0); return 0; }
        if (now_ms() - t0 > timeout) { printf("timeout %ld\n", n); return 1; }
        sleep_us(250);
    }
}

static int cmd_update(int argc, char **argv) {
    const char *until = NULL, *wpath = NULL, *wtext = NULL;
    int tol = 8;
    double timeout = 3000;
    char **cmd = NULL;
    int end = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--")) { cmd = argv + i + 1; if (!*cmd) { usage(); return 2; } break; }
        if (!strcmp(argv[i], "--end")) { end = 1; continue; }
        if (i + 1 >= argc) { usage(); return 2; }
        if (!strcmp(argv[i], "--until")) until = argv[++i];
        else if (!strcmp(argv[i], "--tol")) tol = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--timeout")) timeout = atof(argv[++i]);
        else if (!strcmp(argv[i], "--write") && i + 2 < argc) { wpath = argv[++i]; wtext = argv[++i]; }
        else { usage(); return 2; }
    }
    if (!cmd == !wpath) { usage(); return 2; }
    uint32_t *ref = until ? load(until) : NULL;
    if (until && !ref) return 1;
    uint32_t *before = grab();
    if (!before) { fprintf(stderr, "pixwatch: cannot read the screen\n"); return 1; }
    if (ref && count_diff(before, ref, tol, NULL) == 0) {
        fprintf(stderr, "pixwatch: the screen already shows the target\n");
        return 1;
    }
    signal(SIGPIPE, SIG_IGN);
    fflush(NULL);

    double t0 = now_ms(), t_ret = -1, t_change = -1, t_first = -1;
    pid_t pid = -1;
    int status;
    if (wpath) {
        int fd = open(wpath, O_WRONLY);
        if (fd < 0 || write(fd, wtext, strlen(wtext)) < 0) { perror(wpath); return 1; }
        close(fd);
        t_ret = now_ms();
    } else {
        pid = fork();
        if (pid < 0) { perror("fork"); return 1; }
        if (pid == 0) {
            close(ConnectionNumber(dpy));
            int null = open("/dev/null", O_RDWR);
            if (null >= 0) { dup2(null, 0); dup2(null, 1); if (null > 1) close(null); }
            execvp(cmd[0], cmd);
            fprintf(stderr, "pixwatch: cannot exec %s: %s\n", cmd[0], strerror(errno));
            _exit(127);
        }
    }
    for (;;) {
        uint32_t *px = grab();
        if (px && t_first < 0 && count_diff(px, before, 0, NULL) > 0) t_first = now_ms();
        int done = px && (ref ? count_diff(px, ref, tol, NULL) == 0 : t_first >= 0);
        if (done) { t_change = now_ms(); if (t_first < 0) t_first = t_change; free(px); break; }
        if (pid > 0 && t_ret < 0 && waitpid(pid, &status, WNOHANG) == pid) {
            t_ret = now_ms();
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                printf("exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
                free(px);
                return 1;
            }
        }
        if (now_ms() - t0 > timeout) {
            printf("timeout %ld\n", px ? count_diff(px, ref ? ref : before, ref ? tol : 0, NULL) : -1);
            free(px);
            if (pid > 0 && t_ret < 0) { kill(pid, SIGKILL); waitpid(pid, NULL, 0); }
            return 1;
        }
        free(px);
        sleep_us(250);
    }
    if (pid > 0 && t_ret < 0 && end) {
        kill(pid, SIGTERM);
        double limit = now_ms() + 2000;
        while (now_ms() < limit && waitpid(pid, &status, WNOHANG) != pid) sleep_us(1000);
        if (now_ms() >= limit) { kill(pid, SIGKILL); waitpid(pid, NULL, 0); }
    } else if (pid > 0 && t_ret < 0) {
        double limit = now_ms() + 5000;
        while (now_ms() < limit) {
            if (waitpid(pid, &status, WNOHANG) == pid) { t_ret = now_ms(); break; }
            sleep_us(500);
        }
        if (t_ret < 0) { kill(pid, SIGKILL); waitpid(pid, NULL, 0); }
    }
    printf("%.3f %.3f %.3f\n", t_first - t0, t_change - t0, t_ret < 0 ? -1.0 : t_ret - t0);
    return 0;
}

static int cmd_flood(int argc, char **argv) {
    if (argc < 6 || strcmp(argv[4], "--")) { usage(); return 2; }
    double seconds = atof(argv[0]), lo = atof(argv[2]), hi = atof(argv[3]);
    int workers = atoi(argv[1]);
    char **cmd = argv + 5;
    int ncmd = argc - 5;
    if (workers < 1 || seconds <= 0 || hi < lo) { usage(); return 2; }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) { perror("pipe"); return 1; } /* never held open by a daemon the command leaves */
    double t0 = now_ms(), end = t0 + seconds * 1000;
    for (int w = 0; w < workers; w++) {
        pid_t p = fork();
        if (p < 0) { perror("fork"); return 1; }
        if (p > 0) continue;
        close(fds[0]);
        srand((unsigned)(getpid() ^ (unsigned)t0));
        long ok = 0, failed = 0;
        char value[16];
        char **args = calloc(ncmd + 1, sizeof *args);
        for (int i = 0; i < ncmd; i++) args[i] = strcmp(cmd[i], "%") ? cmd[i] : value;
        int null = open("/dev/null", O_RDWR | O_CLOEXEC);
        while (now_ms() < end) {
            double v;
            do v = lo + (hi - lo) * rand() / (double)RAND_MAX; while (v >= 0.53 && v <= 0.57);
            snprintf(value, sizeof value, "%.2f", v);
            pid_t c = fork();
            if (c == 0) {
                if (null >= 0) { dup2(null, 0); dup2(null, 1); dup2(null, 2); }
                execvp(args[0], args);
                _exit(127);
            }
            int st;
            if (c < 0 || waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st) != 0) failed++;
            else ok++;
        }
        dprintf(fds[1], "%ld %ld\n", ok, failed);
        _exit(0);
    }
    close(fds[1]);
    long ok = 0, failed = 0, a, b;
    FILE *f = fdopen(fds[0], "r");
    while (fscanf(f, "%ld %ld", &a, &b) == 2) { ok += a; failed += b; }
    while (wait(NULL) > 0) {}
    printf("%ld %ld %.3f\n", ok, failed, (now_ms() - t0) / 1000);
    return 0;
}

static int ignore_x_error(Display *d, XErrorEvent *e) { (void)d; (void)e; return 0; }

int main(int argc, char **argv) {
    if (argc < 2) { usage(); return 2; }
    if (!strcmp(argv[1], "flood")) return cmd_flood(argc - 2, argv + 2);
    if (argc < 3 || !parse_geom(argv[2])) { usage(); return 2; }
    dpy = XOpenDisplay(NULL);
    if (!dpy) { fprintf(stderr, "pixwatch: cannot open display\n"); return 3; }
    XSetErrorHandler(ignore_x_error);
    int scr = DefaultScreen(dpy);
    root = RootWindow(dpy, scr);
    Visual *v = DefaultVisual(dpy, scr);
    mask = v->red_mask | v->green_mask | v->blue_mask;
    if (gx < 0 || gy < 0 || gx + gw > DisplayWidth(dpy, scr) || gy + gh > DisplayHeight(dpy, scr)) {
        fprintf(stderr, "pixwatch: %s is not inside the screen\n", argv[2]);
        return 2;
    }
    if (!strcmp(argv[1], "snap") && argc == 4) return cmd_snap(argv[3]);
    if (!strcmp(argv[1], "diff") && (argc == 4 || argc == 5)) return cmd_diff(argv[3], argc == 5 ? atoi(argv[4]) : 0);
    if (!strcmp(argv[1], "waiteq") && (argc == 5 || argc == 6))
        return cmd_waiteq(argv[3], atof(argv[4]), argc == 6 ? atoi(argv[5]) : 8);
    if (!strcmp(argv[1], "update")) return cmd_update(argc - 3, argv + 3);
    usage();
    return 2;
}
