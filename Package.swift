// swift-tools-version:6.0
import PackageDescription

/// The release links pack the code a HUD runs at the front of each binary, so that the few
/// hundred KiB it runs are resident, not the megabytes of 64 KiB blocks they would be scattered
/// over. lld does it from lists of functions that `scripts/build-release` profiles and keeps
/// with the build (`$XHUD_ORDER_DIR`, its scratch path's `layout/`), not in the sources. The
/// server also links the Swift runtime's libstdc++ needs from the archive (`layout/`), packs its
/// relocations (DT_RELR) and exports none of its 2,500 Swift symbols (every symbol lookup of its
/// libraries and of Pango's looks in the executable first), so that less is mapped, relocated
/// and kept at its start.
let layout = Context.packageDirectory + "/layout"
/// Set by scripts/build-release; a plain `swift build -c release` links without an order.
let orderLists = Context.environment["XHUD_ORDER_DIR"]
/// Each function in a section of its own, so that the order can place it: only targets outside the
/// XHUD library product (a package that depends on it may not carry unsafe flags).
let ownSections: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))]
/// The executables' main.swift (one call each) in Swift 5 mode: Swift 6 runs top-level code on
/// the main actor, which links the concurrency runtime and libdispatch into programs that use
/// neither (700 KB of code and their start-up). Everything they call is in Swift 6 mode.
let entryPoint: [SwiftSetting] = [.swiftLanguageMode(.v5)]
func packedCode(_ order: String) -> [String] {
    ["-use-ld=lld"] + (orderLists.map { ["-Xlinker", "--symbol-ordering-file=\($0)/\(order)", "-Xlinker", "--no-warn-symbol-ordering"] } ?? [])
}

let package = Package(
    name: "xhud",
    products: [
        .library(name: "XHUD", targets: ["XHUD"]),
        .executable(name: "xhud", targets: ["xhud"]),
        .executable(name: "xhud-host", targets: ["xhud-host"]),
        .executable(name: "xhud-fonts", targets: ["xhud-fonts"]),
    ],
    dependencies: [],
    targets: [
        // C libraries, found with pkg-config. Only HUDRender and HUDX11 import them.
        .systemLibrary(
            name: "CX11", path: "Sources/CX11", pkgConfig: "x11 xext xrender xrandr xfixes xdamage",
            providers: [.apt(["libx11-dev", "libxext-dev", "libxrender-dev", "libxrandr-dev", "libxfixes-dev", "libxdamage-dev", "libx11-xcb-dev"])]),
        .systemLibrary(
            name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo fontconfig",
            providers: [.apt(["libcairo2-dev", "libfontconfig-dev"])]),

        // Platform-free: configuration, layout, animation, lifecycle, progress. No C, no Foundation;
        // the monotonic clock is HUDSystem's, which every program that has HUDCore links anyway.
        .target(name: "HUDCore", dependencies: ["HUDSystem"]),
        // The system's plumbing, written once: the standard streams (Swift 6 code may not touch
        // Glibc's `stderr`), whole writes, directory listings, the monotonic clock, the
        // environment and the program's own path, threads and locks.
        // Plain Glibc, and the GNU calls of CSched.
        .target(name: "HUDSystem", dependencies: ["CSched"]),
        // The CPU placement of threads: glibc's GNU calls, which Swift does not import.
        .target(name: "CSched"),
        // Draws a HUD state into any Cairo surface; knows nothing of X11.
        // Pango through stubs that load it on first use (see its header): nothing links Pango, so
        // a server's first frame does not wait for 17 more libraries to be mapped before main.
        .target(name: "CPango", dependencies: ["CCairo"]),
        // Plain text without Pango: fontconfig, HarfBuzz (loaded on first use) and Cairo, for the
        // text whose pixels are Pango's anyway (see its header).
        .target(name: "CDirectText", dependencies: ["CCairo", "CFontMatch"]),
        // A label font's match as Pango makes it, with fontconfig alone: the server's text and the
        // font helper share it.
        .target(name: "CFontMatch", linkerSettings: [.linkedLibrary("fontconfig")]),
        .target(name: "HUDRender", dependencies: ["HUDSystem", "HUDCore", "CCairo", "CPango", "CDirectText", "CFontMatch"]),
        // A HUD's orchestration on no particular display (lifecycle, layout, when and what to
        // draw), the interface a display backend implements (HUDBackend, HUDOutput), and the
        // registry that stacks a process's HUDs (the server's, the library's), and what every
        // backend's event loop polls (LoopSources: descriptors, timers, posted work, signals).
        .target(name: "HUDEngine", dependencies: ["HUDSystem", "HUDCore", "HUDRender", "CCairo"]),
        // The X11 backend: display, visuals, compositor, windows, input, monitors, display link,
        // frames composed on the X server.
        // Present's requests and completion event through Xlib (the protocol header only).
        .target(name: "CPresent", dependencies: ["CX11"]),
        // Questions to the X server sent without waiting (XCB under Xlib), and Xlib's
        // QueryExtension answered from XCB's answers (see its header).
        .target(
            name: "CXPrefetch", dependencies: ["CX11"],
            linkerSettings: [.linkedLibrary("X11-xcb"), .linkedLibrary("xcb")]),
        // Xlib's XQueryExtension and XCB's xcb_get_maximum_request_length for every library of
        // xhud-host (only it links this): the extension libraries' questions, one round trip
        // each, answered from one, sent while XOpenDisplay waits on its own.
        .target(name: "CXQueryExtension", dependencies: ["CXPrefetch"]),
        // XFixes' requests through Xlib, its version asked with the first questions (CXPrefetch).
        .target(name: "CXFixes", dependencies: ["CX11", "CXPrefetch"]),
        .target(name: "HUDX11", dependencies: ["HUDSystem", "HUDCore", "HUDRender", "HUDEngine", "CX11", "CPresent", "CXPrefetch", "CXFixes"]),
        // The Wayland backend: layer-shell surfaces drawn into shared memory, frames paced by the
        // compositor's frame callbacks. libwayland-client is loaded with dlopen (an X11 session
        // never maps it); the protocols' interface tables are CWayland's generated C.
        .target(name: "CWayland"),
        .target(name: "HUDWayland", dependencies: ["HUDSystem", "HUDCore", "HUDRender", "HUDEngine", "CCairo", "CWayland"]),
        // The library facade: an MBProgressHUD-style HUD and an SVProgressHUD-style shared HUD.
        .target(name: "XHUD", dependencies: ["HUDSystem", "HUDCore", "HUDRender", "HUDEngine", "HUDX11", "HUDWayland", "HUDSettings"]),
        // The executables' arguments, taken from glibc instead of the Swift runtime's reading of
        // /proc/self/maps before main (see argv.c). Only xhud and xhud-host link it.
        .target(name: "CArgv"),
        // The server's socket, its messages and its start: plain Swift and Glibc, so that a client
        // starts lean.
        .target(name: "HUDSocket", dependencies: ["HUDSystem"], swiftSettings: ownSections),
        // The thin client: a HUD's session with the server (stdin forwarded, a wrapped command
        // run, the server restarted if it dies). No X11, Cairo, Pango or Foundation.
        .target(name: "HUDClient", dependencies: ["HUDSystem", "HUDCore", "HUDSocket"], swiftSettings: ownSections),
        // The command line, parsed: every option typed (`HUDOptions`), a table-driven parser that
        // costs microseconds (the server parses every HUD's command line). No Foundation.
        .target(name: "HUDCommandLine", dependencies: ["HUDSystem", "HUDCore", "HUDSocket", "HUDSettings"], swiftSettings: ownSections),
        // TOML, strict and small, in plain Swift (no Foundation, no C): the configuration files
        // and themes are parsed in the process that needs them, in microseconds.
        .target(name: "HUDTOML"),
        // The desktop's settings: the configuration file and themes, their precedence, XDG
        // locations, icon themes. Used by the command and its server.
        // No unsafe flags: the library resolves icon names with it, and a package that depends on
        // the library by version may not build a target that has them.
        .target(name: "HUDSettings", dependencies: ["HUDSystem", "HUDTOML"]),
        // `org.freedesktop.Notifications` on the session bus: libdbus loaded with dlopen on a
        // thread of its own once the server is up (nothing of D-Bus on the way to a first frame,
        // nothing in the thin client), each call turned into the `xhud` invocation it means.
        .target(name: "HUDNotifications", dependencies: ["HUDSystem", "HUDCore", "CCairo", "HUDBus"]),
        // libdbus-1 loaded with dlopen (nothing links it), the reading and writing of a message's
        // values: what the server's buses share (notifications, accessibility). Plain Glibc.
        .target(name: "HUDBus", dependencies: ["HUDSystem"]),
        // The HUDs as AT-SPI objects on the accessibility bus (Orca reads them as GTK's
        // notifications): found and served on a thread of its own after the server's first frame,
        // nothing at all when no accessibility bus runs.
        .target(name: "HUDAccessibility", dependencies: ["HUDSystem", "HUDCore", "HUDBus"]),
        // `xhud`: the lean front door, a thin client of the display's server; it runs xhud-host
        // for help, `xhud server` and where no server can run.
        // Linked fully statically: no dynamic loader at all, it starts as fast as a C program.
        // Its folder is not Sources/xhud: that differs from Sources/XHUD only by case.
        .executableTarget(
            name: "xhud", dependencies: ["HUDClient", "CArgv"], path: "Sources/xhud-client", swiftSettings: ownSections + entryPoint,
            linkerSettings: [
                .unsafeFlags(["-static-executable"]),
                .unsafeFlags(packedCode("xhud.order"), .when(configuration: .release)),
            ]),
        // The display's HUD server: requests parsed and applied, HUDs stacked, client sessions,
        // named HUDs, images drawn off the loop, the notification and accessibility relays. The
        // display-wide server and a client's private one (where none can run) are this one.
        .target(
            name: "HUDService",
            dependencies: [
                "HUDX11", "HUDWayland", "HUDEngine", "HUDRender", "HUDCore", "HUDSocket", "HUDSettings", "HUDCommandLine", "HUDSystem",
                "HUDNotifications", "HUDAccessibility", "HUDBus",
            ], swiftSettings: ownSections),
        // The server's program (HostCommand): `xhud server`, a server started by a client, a
        // private server and its client, help, `--print-config`, `--render-png`. No Foundation and
        // no argument parser.
        .target(
            name: "HUDHost",
            dependencies: [
                "HUDSystem", "HUDService", "HUDRender", "HUDCore", "HUDSocket", "HUDClient", "HUDSettings", "HUDCommandLine", "CCairo",
            ], swiftSettings: ownSections),
        // Its executable: one call. Its main.swift is in Swift 5 mode (see there).
        .executableTarget(
            name: "xhud-host", dependencies: ["HUDHost", "CArgv", "CXQueryExtension"], swiftSettings: ownSections + entryPoint,
            linkerSettings: [
                .unsafeFlags(["-Xlinker", "--export-dynamic-symbol=XQueryExtension"]),
                .unsafeFlags(
                    packedCode("xhud-host.order") + [
                        "-L", layout + "/static-libstdc++",
                        "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                        "-Xlinker", "--no-export-dynamic",
                    ],
                    .when(configuration: .release)),
            ]),
        // The font helper: fontconfig's matches for a server that has none kept, read while the
        // server starts (see its main.c). C, linked to fontconfig alone: without the Swift
        // runtime's start files and libstdc++ (the linker script's archive, of which it needs
        // nothing), nothing but fontconfig's libraries is mapped before its main.
        .executableTarget(
            name: "xhud-fonts", dependencies: ["CFontMatch"],
            linkerSettings: [.unsafeFlags(["-nostartfiles", "-use-ld=lld", "-L", layout + "/static-libstdc++"])]),
        // Prints the cost of one rendered frame per mode (a benchmark, never a test).
        .executableTarget(name: "xhud-render-bench", dependencies: ["HUDSystem", "HUDRender", "HUDCore", "CCairo"]),
        // Prints the cost of reading a configuration file: TOML parsed, and the cached lines read
        // (a benchmark, never a test).
        .executableTarget(name: "xhud-settings-bench", dependencies: ["HUDSystem", "HUDCommandLine", "HUDSettings", "HUDTOML"]),

        // Examples of the library, built with the package (import XHUD alone).
        .executableTarget(name: "example-readme", dependencies: ["XHUD"], path: "Examples/ReadmeExample"),
        .executableTarget(name: "example-sv", dependencies: ["XHUD"], path: "Examples/ShowcaseSV"),
        .executableTarget(name: "example-progress", dependencies: ["XHUD"], path: "Examples/ProgressDemo"),
        .executableTarget(name: "example-migration", dependencies: ["XHUD"], path: "Examples/Migration"),
        // Each way a program runs its main queue (dispatchMain, RunLoop, the main actor, observers
        // on .main, background threads): XHUDTests run it with a watchdog, as a deadlock would hang.
        .executableTarget(name: "example-queues", dependencies: ["XHUD"], path: "Examples/QueueArrangements"),
        // Every name of MBProgressHUD 0.9 and 1.x and SVProgressHUD 1.x and 2.x, called as iOS
        // code calls it; XHUDTests run it.
        .executableTarget(name: "example-headers", dependencies: ["XHUD"], path: "Examples/HeaderSpellings"),

        // What the tests drive HUDs with, as swift-nio's NIOEmbedded: a backend with no display
        // that records what its controller asks (`RecordingBackend`), and a loop run by hand on
        // a manual clock (`ManualLoop`). A target the test targets share, not a product.
        .target(name: "HUDTesting", dependencies: ["HUDSystem", "HUDCore", "HUDRender", "HUDEngine"]),

        .testTarget(name: "HUDCoreTests", dependencies: ["HUDCore"]),
        .testTarget(
            name: "HUDServiceTests", dependencies: ["HUDService", "HUDCommandLine", "HUDEngine", "HUDCore", "HUDSocket", "HUDSystem", "HUDTesting"]),
        .testTarget(name: "HUDSocketTests", dependencies: ["HUDSocket", "HUDSystem"]),
        .testTarget(name: "HUDNotificationsTests", dependencies: ["HUDSystem", "HUDNotifications", "HUDBus", "HUDCore"]),
        .testTarget(name: "HUDAccessibilityTests", dependencies: ["HUDSystem", "HUDAccessibility", "HUDBus", "HUDCore"]),
        .testTarget(name: "HUDClientTests", dependencies: ["HUDClient", "HUDSocket"]),
        .testTarget(name: "HUDEngineTests", dependencies: ["HUDEngine", "HUDCore", "HUDRender", "HUDSystem", "HUDTesting"]),
        .testTarget(name: "HUDCommandLineTests", dependencies: ["HUDCommandLine", "HUDSettings", "HUDCore"]),
        .testTarget(name: "HUDSettingsTests", dependencies: ["HUDSettings", "HUDSystem", "HUDCommandLine"]),
        .testTarget(name: "HUDTOMLTests", dependencies: ["HUDTOML"]),
        .testTarget(name: "HUDSystemTests", dependencies: ["HUDSystem", "CSched"]),
        // The example programs it runs are built with it (ExampleRunner).
        .testTarget(name: "XHUDTests", dependencies: ["XHUD", "example-queues", "example-headers"]),
        .testTarget(name: "HUDX11Tests", dependencies: ["HUDX11"]),
        .testTarget(name: "HUDWaylandTests", dependencies: ["HUDWayland", "HUDCore"]),
        .testTarget(
            name: "HUDRenderTests", dependencies: ["HUDRender", "HUDCore", "CCairo", "CPango", "CDirectText", "CFontMatch"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
