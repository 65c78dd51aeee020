/* The program's arguments for Swift's `CommandLine`, taken from glibc.
 *
 * The Swift runtime finds argv on Linux with a constructor that reads and parses
 * /proc/self/maps (to find the stack, then walks back from `environ`). In a process that has
 * mapped X11, Cairo and fontconfig that is some 160 lines, and reading them costs a few hundred
 * microseconds before `main`, on the way to every HUD's first frame. glibc passes argc and argv
 * to every function in the executable's .init_array, so this file keeps them from there and
 * defines the two runtime entry points that the runtime's CommandLine object would: linked into
 * xhud and xhud-host, the linker then has no reason to take that object from libswiftCore.a.
 * (Had it taken it anyway, the link would fail on a duplicate symbol, not misbehave.) */
#include "CArgv.h"

static int captured_argc;
static char **captured_argv;
static char **override_argv;
static int override_argc;

static void capture(int argc, char **argv, char **envp) {
    (void)envp;
    captured_argc = argc;
    captured_argv = argv;
}

__attribute__((section(".init_array"), used)) static void (*const capture_at_start)(int, char **, char **) = capture;

char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    static char *empty[] = {0};
    if (override_argv) {
        *outArgLen = override_argc;
        return override_argv;
    }
    if (captured_argv) {
        *outArgLen = captured_argc;
        return captured_argv;
    }
    *outArgLen = 0;
    return empty;
}

void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    override_argv = argv;
    override_argc = argc;
}
