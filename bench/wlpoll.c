/*
 * wlpoll: exec of a client to its first changed pixel on a wlroots compositor's output, read
 * back with wlr-screencopy-unstable-v1 (what the output shows: the compositor's rendered frame).
 *
 *   wlpoll [--region WxH+X+Y] [--bg RRGGBB] [--settle MS] [--timeout MS] [--locate MS]
 *          (--write PATH TEXT | -- CMD [ARGS...])
 *       Captures the region (default: the whole first output) until it shows --bg everywhere
 *       (at most --settle ms, default 3000; without --bg the first capture is the reference),
 *       then at t0 forks and execs CMD (stdin and stdout /dev/null, its own process group) or
 *       opens PATH, writes TEXT and closes it (`echo 50 > fifo`), and captures again and again
 *       until a pixel differs from the reference. Prints "FIRST_MS CAPTURES INTERVAL_MS": ms
 *       from t0 to the arrival of the first capture that differs, the captures taken after t0,
 *       and their mean interval (the resolution: a capture completes with the compositor's next
 *       frame). CMD exiting 0 before the change is no failure (notify-send, `xhud --id`). Then
 *       SIGTERM to CMD's process group. --locate MS: MS after the change, one more capture, and
 *       a fourth field: the bounding box (WxH+X+Y, output coordinates) of what differs then, to
 *       time the next runs on that region alone (a small region is captured faster). Exit 1 with "timeout" (default 5000 ms) or "exited N";
 *       2 on usage errors; 3 without a display or without screencopy.
 *
 *   wlpoll --wait-bg RRGGBB [--region WxH+X+Y] [--settle MS]
 *       Exit 0 once the region shows the colour everywhere, 1 if it does not within --settle ms.
 *
 * The protocol's two interfaces are declared here from its documented requests and events
 * (version 3), so that nothing is generated at bench time; libwayland checks every message
 * against them.
 *
 * Build: cc -O2 -o wlpoll wlpoll.c $(pkg-config --cflags --libs wayland-client)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

/* --- zwlr_screencopy_manager_v1 / zwlr_screencopy_frame_v1, version 3 --------------------- */

extern const struct wl_interface zwlr_screencopy_frame_v1_interface;
static const struct wl_interface *types[] = {
    NULL, NULL, NULL, NULL,
    &zwlr_screencopy_frame_v1_interface, NULL, &wl_output_interface,                    /* 4: capture_output */
    &zwlr_screencopy_frame_v1_interface, NULL, &wl_output_interface, NULL, NULL, NULL, NULL, /* 7: _region */
    &wl_buffer_interface,                                                               /* 14: copy */
};
static const struct wl_message manager_requests[] = {
    {"capture_output", "nio", types + 4},
    {"capture_output_region", "nioiiii", types + 7},
    {"destroy", "", types + 0},
};
const struct wl_interface zwlr_screencopy_manager_v1_interface = {
    "zwlr_screencopy_manager_v1", 3, 3, manager_requests, 0, NULL,
};
static const struct wl_message frame_requests[] = {
    {"copy", "o", types + 14},
    {"destroy", "", types + 0},
    {"copy_with_damage", "2o", types + 14},
};
static const struct wl_message frame_events[] = {
    {"buffer", "uuuu", types + 0},
    {"flags", "u", types + 0},
    {"ready", "uuu", types + 0},
    {"failed", "", types + 0},
    {"damage", "2uuuu", types + 0},
    {"linux_dmabuf", "3uuu", types + 0},
    {"buffer_done", "3", types + 0},
};
const struct wl_interface zwlr_screencopy_frame_v1_interface = {
    "zwlr_screencopy_frame_v1", 3, 3, frame_requests, 7, frame_events,
};
struct frame_listener {
    void (*buffer)(void *, struct wl_proxy *, uint32_t format, uint32_t w, uint32_t h, uint32_t stride);
    void (*flags)(void *, struct wl_proxy *, uint32_t);
    void (*ready)(void *, struct wl_proxy *, uint32_t, uint32_t, uint32_t);
    void (*failed)(void *, struct wl_proxy *);
    void (*damage)(void *, struct wl_proxy *, uint32_t, uint32_t, uint32_t, uint32_t);
    void (*linux_dmabuf)(void *, struct wl_proxy *, uint32_t, uint32_t, uint32_t);
    void (*buffer_done)(void *, struct wl_proxy *);
};

/* --- state ----------------------------------------------------------------------------------- */

static struct wl_display *display;
static struct wl_shm *shm;
static struct wl_output *output;
static struct wl_proxy *manager;
static uint32_t manager_version;
static int rx, ry, rw, rh, have_region;

static struct {
    uint32_t format, width, height, stride;
    int have_buffer, done, ready, failed;
} cap;
static struct wl_buffer *buffer;
static uint32_t *pixels;
static size_t buffer_size;
static uint32_t buffer_format, buffer_w, buffer_h, buffer_stride;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void on_buffer(void *d, struct wl_proxy *f, uint32_t format, uint32_t w, uint32_t h, uint32_t stride) {
    (void)d; (void)f;
    cap.format = format; cap.width = w; cap.height = h; cap.stride = stride; cap.have_buffer = 1;
}
static void on_flags(void *d, struct wl_proxy *f, uint32_t fl) { (void)d; (void)f; (void)fl; }
static void on_ready(void *d, struct wl_proxy *f, uint32_t a, uint32_t b, uint32_t c) {
    (void)d; (void)f; (void)a; (void)b; (void)c;
    cap.ready = 1;
}
static void on_failed(void *d, struct wl_proxy *f) { (void)d; (void)f; cap.failed = 1; }
static void on_damage(void *d, struct wl_proxy *f, uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
    (void)d; (void)f; (void)x; (void)y; (void)w; (void)h;
}
static void on_dmabuf(void *d, struct wl_proxy *f, uint32_t a, uint32_t b, uint32_t c) {
    (void)d; (void)f; (void)a; (void)b; (void)c;
}
static void on_buffer_done(void *d, struct wl_proxy *f) { (void)d; (void)f; cap.done = 1; }
static const struct frame_listener frame_listener = {
    on_buffer, on_flags, on_ready, on_failed, on_damage, on_dmabuf, on_buffer_done,
};

static void on_global(void *d, struct wl_registry *reg, uint32_t name, const char *iface, uint32_t version) {
    (void)d;
    if (!strcmp(iface, "wl_shm")) shm = wl_registry_bind(reg, name, &wl_shm_interface, 1);
    else if (!strcmp(iface, "wl_output") && !output) output = wl_registry_bind(reg, name, &wl_output_interface, 1);
    else if (!strcmp(iface, "zwlr_screencopy_manager_v1")) {
        manager_version = version < 3 ? version : 3;
        manager = wl_registry_bind(reg, name, &zwlr_screencopy_manager_v1_interface, manager_version);
    }
}
static void on_global_remove(void *d, struct wl_registry *r, uint32_t n) { (void)d; (void)r; (void)n; }
static const struct wl_registry_listener registry_listener = {on_global, on_global_remove};

/* A buffer of the size and format the compositor asked for, made once and reused. */
static int ensure_buffer(void) {
    if (buffer && buffer_format == cap.format && buffer_w == cap.width && buffer_h == cap.height &&
        buffer_stride == cap.stride)
        return 1;
    if (buffer) { wl_buffer_destroy(buffer); munmap(pixels, buffer_size); }
    buffer_size = (size_t)cap.stride * cap.height;
    int fd = memfd_create("wlpoll", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, buffer_size) != 0) return 0;
    pixels = mmap(NULL, buffer_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED) return 0;
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, buffer_size);
    buffer = wl_shm_pool_create_buffer(pool, 0, cap.width, cap.height, cap.stride, cap.format);
    wl_shm_pool_destroy(pool);
    close(fd);
    buffer_format = cap.format; buffer_w = cap.width; buffer_h = cap.height; buffer_stride = cap.stride;
    return 1;
}

/* One capture of the region into `pixels`: 1 on success. */
static int capture(void) {
    memset(&cap, 0, sizeof cap);
    struct wl_proxy *frame;
    if (have_region)
        frame = wl_proxy_marshal_constructor_versioned(manager, 1, &zwlr_screencopy_frame_v1_interface,
                                                       wl_proxy_get_version(manager), NULL, 0, output, rx, ry, rw, rh);
    else
        frame = wl_proxy_marshal_constructor_versioned(manager, 0, &zwlr_screencopy_frame_v1_interface,
                                                       wl_proxy_get_version(manager), NULL, 0, output);
    wl_proxy_add_listener(frame, (void (**)(void))&frame_listener, NULL);
    /* Version 3 lists every buffer type and then buffer_done; before, the shm buffer alone. */
    while (!cap.failed && !(cap.have_buffer && (manager_version < 3 || cap.done)))
        if (wl_display_dispatch(display) < 0) return 0;
    if (cap.failed || !ensure_buffer()) { wl_proxy_marshal(frame, 1); wl_proxy_destroy(frame); return 0; }
    wl_proxy_marshal(frame, 0, buffer);
    while (!cap.ready && !cap.failed)
        if (wl_display_dispatch(display) < 0) return 0;
    wl_proxy_marshal(frame, 1);
    wl_proxy_destroy(frame);
    return cap.ready;
}

/* Whether the capture differs from ref (RGB only: an XRGB buffer's X byte means nothing). */
static int differs(const uint32_t *ref) {
    for (uint32_t y = 0; y < cap.height; y++) {
        const uint32_t *a = (const uint32_t *)((const char *)pixels + (size_t)y * cap.stride);
        const uint32_t *b = (const uint32_t *)((const char *)ref + (size_t)y * cap.stride);
        for (uint32_t x = 0; x < cap.width; x++)
            if ((a[x] ^ b[x]) & 0x00ffffff) return 1;
    }
    return 0;
}

static int all_bg(uint32_t bg) {
    for (uint32_t y = 0; y < cap.height; y++) {
        const uint32_t *a = (const uint32_t *)((const char *)pixels + (size_t)y * cap.stride);
        for (uint32_t x = 0; x < cap.width; x++)
            if ((a[x] & 0x00ffffff) != bg) return 0;
    }
    return 1;
}

/* The bounding box of what differs from ref, as WxH+X+Y in output coordinates ("none"). */
static void print_box(const uint32_t *ref) {
    int x0 = cap.width, y0 = cap.height, x1 = -1, y1 = -1;
    for (int y = 0; y < (int)cap.height; y++) {
        const uint32_t *a = (const uint32_t *)((const char *)pixels + (size_t)y * cap.stride);
        const uint32_t *b = (const uint32_t *)((const char *)ref + (size_t)y * cap.stride);
        for (int x = 0; x < (int)cap.width; x++)
            if ((a[x] ^ b[x]) & 0x00ffffff) {
                if (x < x0) x0 = x;
                if (x > x1) x1 = x;
                if (y < y0) y0 = y;
                if (y > y1) y1 = y;
            }
    }
    if (x1 < 0) printf(" none");
    else printf(" %dx%d+%d+%d", x1 - x0 + 1, y1 - y0 + 1, x0 + (have_region ? rx : 0), y0 + (have_region ? ry : 0));
}

static void usage(void) {
    fprintf(stderr, "usage: wlpoll [--region WxH+X+Y] [--bg RRGGBB] [--settle MS] [--timeout MS] [--locate MS]\n"
                    "              (--write PATH TEXT | -- CMD [ARGS...])\n"
                    "       wlpoll --wait-bg RRGGBB [--region WxH+X+Y] [--settle MS]\n");
}

int main(int argc, char **argv) {
    double timeout = 5000, settle = 3000, locate = -1;
    int wait_bg = 0;
    const char *wpath = NULL, *wtext = NULL;
    char **cmd = NULL;
    int have_bg = 0;
    uint32_t bg = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) { cmd = argv + i + 1; break; }
        if (i + 1 >= argc) { usage(); return 2; }
        if (!strcmp(argv[i], "--region")) {
            if (sscanf(argv[++i], "%dx%d+%d+%d", &rw, &rh, &rx, &ry) != 4 || rw < 1 || rh < 1) { usage(); return 2; }
            have_region = 1;
        } else if (!strcmp(argv[i], "--bg")) {
            bg = (uint32_t)strtoul(argv[++i][0] == '#' ? argv[i] + 1 : argv[i], NULL, 16) & 0xffffff;
            have_bg = 1;
        } else if (!strcmp(argv[i], "--wait-bg")) {
            bg = (uint32_t)strtoul(argv[++i][0] == '#' ? argv[i] + 1 : argv[i], NULL, 16) & 0xffffff;
            have_bg = wait_bg = 1;
        } else if (!strcmp(argv[i], "--settle")) settle = atof(argv[++i]);
        else if (!strcmp(argv[i], "--locate")) locate = atof(argv[++i]);
        else if (!strcmp(argv[i], "--timeout")) timeout = atof(argv[++i]);
        else if (!strcmp(argv[i], "--write") && i + 2 < argc) { wpath = argv[++i]; wtext = argv[++i]; }
        else { usage(); return 2; }
    }
    if (!wait_bg && ((cmd && !*cmd) || !cmd == !wpath)) { usage(); return 2; }

    display = wl_display_connect(NULL);
    if (!display) { fprintf(stderr, "wlpoll: cannot connect to the Wayland display\n"); return 3; }
    struct wl_registry *reg = wl_display_get_registry(display);
    wl_registry_add_listener(reg, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!manager || !shm || !output) {
        fprintf(stderr, "wlpoll: the compositor has no %s\n", !manager ? "wlr-screencopy" : !shm ? "wl_shm" : "output");
        return 3;
    }

    /* The reference: the background once the screen shows it everywhere, or the screen now. */
    double until = now_ms() + settle;
    for (;;) {
        if (!capture()) { fprintf(stderr, "wlpoll: the capture failed\n"); return 3; }
        if (!have_bg || all_bg(bg)) break;
        if (now_ms() > until) { fprintf(stderr, "wlpoll: the screen does not show the background before the run\n"); return 1; }
    }
    if (wait_bg) return 0;
    uint32_t *ref = malloc(buffer_size);
    memcpy(ref, pixels, buffer_size);

    signal(SIGPIPE, SIG_IGN);
    fflush(NULL);
    double t0 = now_ms();
    pid_t pid = -1;
    if (wpath) {
        int fd = open(wpath, O_WRONLY);
        if (fd < 0 || write(fd, wtext, strlen(wtext)) < 0) { perror(wpath); return 1; }
        close(fd);
    } else {
        pid = fork();
        if (pid < 0) { perror("fork"); return 1; }
        if (pid == 0) {
            setpgid(0, 0);
            close(wl_display_get_fd(display));
            int null = open("/dev/null", O_RDWR);
            if (null >= 0) { dup2(null, 0); dup2(null, 1); if (null > 1) close(null); }
            execvp(cmd[0], cmd);
            fprintf(stderr, "wlpoll: cannot exec %s: %s\n", cmd[0], strerror(errno));
            _exit(127);
        }
        setpgid(pid, pid);
    }
    int captures = 0, reaped = 0, status, rc = 0;
    double t_first = -1;
    while (t_first < 0) {
        if (!capture()) { printf("capture failed\n"); rc = 1; break; }
        captures++;
        if (differs(ref)) { t_first = now_ms(); break; }
        if (pid > 0 && !reaped && waitpid(pid, &status, WNOHANG) == pid) {
            reaped = 1;
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                printf("exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
                rc = 1;
                break;
            }
        }
        if (now_ms() - t0 > timeout) { printf("timeout\n"); rc = 1; break; }
    }
    if (rc == 0) {
        printf("%.3f %d %.3f", t_first - t0, captures, (t_first - t0) / captures);
        if (locate >= 0) {
            usleep((useconds_t)(locate * 1000));
            if (capture()) print_box(ref);
            else printf(" none");
        }
        printf("\n");
    }
    fflush(stdout);
    if (pid > 0) {
        kill(-pid, SIGTERM);
        if (!reaped) {
            for (int i = 0; i < 200 && waitpid(pid, NULL, WNOHANG) != pid; i++) usleep(10000);
            kill(-pid, SIGKILL);
            waitpid(pid, NULL, WNOHANG);
        }
    }
    wl_display_disconnect(display);
    return rc;
}
