#if canImport(Glibc)
import Glibc
#endif
import HUDBus
import HUDCore
import HUDEngine
import HUDRender
import HUDSettings
import HUDSocket
import HUDSystem
import HUDX11
import HUDWayland

/// The server on an X11 display (or, where `BackendChoice` picks it, on Wayland).
package typealias X11Server = HUDServer<X11HUDDisplay>

/// Its three starts: `xhud server`, a server started by a client, a client's private server.
extension HUDServer where Display == X11HUDDisplay {
    /// A server on `display`'s own loop, ending on SIGTERM or SIGINT.
    static func make(paths: ServerPaths?, display: X11Display, listener: Int32) -> X11Server {
        let loop = HUDLoop(display: display)
        loop.textShaper = TextShaper.shared
        let server = X11Server(paths: paths, display: X11HUDDisplay(loop), listener: listener)
        // GTK's settings before the first request (a file); XSETTINGS after the first frames
        // (two round trips, 200 ms over a 100 ms link, on no cold start's way to its first
        // frame): a cold start's first HUD takes fontconfig's system-ui there.
        server.desktop = .gtkSettings()
        loop.installSignalHandlers()
        loop.onSignal = { [unowned server] _ in server.exit() }
        // While the fonts load (FontWarmup): the first HUD then finds its round trips done.
        display.prefetchForHUDs()
        // The kept font matches are checked, and new ones kept, once the first HUDs are up: soon
        // when the configuration is loaded already (they did not hold: a match and a file to
        // write), later when it is to be loaded (3-4 ms of a core, not beside the first frames).
        // Asked then, not now: the warm-up thread may still be reading them.
        _ = loop.addTimer(after: 0.05) { [unowned loop] in
            if FontWarmup.keptMatchesHeld { _ = loop.addTimer(after: 0.35) { FontWarmup.settle() } } else { FontWarmup.settle() }
        }
        server.accessibility = AccessibilityRelay(server: server)
        // After the request that started the server (its client waits).
        _ = loop.addTimer(after: 0) { [unowned server] in
            server.afterFirstFrames { [unowned server] in
                // A quarter of a second on: the first frame's requests are through a slow link.
                _ = server.loop.addTimer(after: 0.25) { [unowned server] in
                    server.desktop = DesktopPreferences(xsettings: display.xsettingsStrings()).over(server.desktop)
                }
            }
            server.appearance = AppearanceWatch()
            server.appearance?.start()
        }
        return server
    }

    /// `xhud server`: serves in the foreground (for autostart and systemd) until SIGTERM or
    /// SIGINT, whether or not HUDs show; exit 0 when another server already serves the display.
    /// `notifications`: serve `org.freedesktop.Notifications` too (`replace`: take it over).
    package static func runForeground(paths: ServerPaths, notifications: Bool = false, replace: Bool = false) -> Int32 {
        if let fd = Environment.value(ServerLauncher.listenFDVariable).flatMap({ Int32($0) }) {
            return runStarted(paths: paths, listener: fd)
        }
        guard let lock = ServerLock(path: paths.lock) else {
            Console.error("xhud: a server already serves \(paths.socket)\n")
            // A server started by a key press, or a plain `xhud server`, serves no bus.
            if notifications { Console.error("xhud: it does not serve notifications unless it was started with --notifications\n") }
            return Status.done
        }
        unlink(paths.socket)
        let listener: Int32
        do { listener = try UnixSocket.listen(paths.socket) } catch { return fail("\(error)", Status.usage) }
        do {
            if let wayland = try BackendChoice.wayland() {
                return withExtendedLifetime(lock) {
                    WaylandServer.runForeground(paths: paths, connection: wayland, listener: listener, notifications: notifications, replace: replace)
                }
            }
        } catch {
            unlink(paths.socket)
            return fail("\(error)", Status.noDisplay)
        }
        let display: X11Display
        do { display = try X11Display(keyboardExtension: false) } catch {
            unlink(paths.socket)
            return fail("\(error)", Status.noDisplay)
        }
        let server = X11Server.make(paths: paths, display: display, listener: listener)
        server.lingersForever = true
        server.takeOverFromDeadServer()
        // Up before anyone asks: the first HUD's loading (Pango, the default fonts, the drawing
        // code) is done now, not while the first client waits.
        // The default label font only: each further font set stays resident (about 0.1 MiB).
        var sample = HUDConfiguration()
        sample.mode = .annular
        sample.label = "Ag 0%"
        HUDRenderer().warmUp(sample, region: Size(width: 400, height: 300))
        FontWarmup.loadPango()
        if notifications {
            // Once the server is up, on the bus's own thread.
            server.notifications = NotificationRelay(server: server, directory: paths.directory, replace: replace)
            server.notifications?.start()
        }
        _ = lock  // held until this process exits
        return server.display.run()
    }

    /// A server started by a client (`ServerLauncher`): the client bound the socket and took the
    /// lock, passed here as descriptors 3 and 4. It serves until `--linger` after its last HUD.
    /// Without a display it exits at once: its clients read the end of the connection and draw
    /// their HUDs themselves.
    private static func runStarted(paths: ServerPaths, listener: Int32) -> Int32 {
        unsetenv(ServerLauncher.listenFDVariable)
        _ = fcntl(listener, F_SETFD, FD_CLOEXEC)
        _ = fcntl(4, F_SETFD, FD_CLOEXEC)  // the lock: held until this process exits
        do {
            if let wayland = try BackendChoice.wayland() { return WaylandServer.runStarted(paths: paths, connection: wayland, listener: listener) }
        } catch {
            unlink(paths.socket)
            return Status.noDisplay
        }
        let display: X11Display
        do { display = try X11Display(keyboardExtension: false) } catch {
            unlink(paths.socket)  // ours (the lock is held): no stale socket is left behind
            return Status.noDisplay
        }
        let server = X11Server.make(paths: paths, display: display, listener: listener)
        FontWarmup.loadShaping()
        server.scheduleExit()
        // After the request that started it (its client waits; a journal is rare).
        _ = server.loop.addTimer(after: 0) { server.takeOverFromDeadServer() }
        return server.display.run()
    }

    /// The server of one client where no display-wide server can run (the runtime directory is
    /// not the user's alone, say): the same server, on a connection of its own instead of a
    /// socket, ending with its last HUD. Its client is the caller's process (`PrivateServer`).
    /// `silentWithoutDisplay`: no display closes the connection unanswered (a wrapped command
    /// then runs without a HUD, not a word said), else the client hears why.
    package static func runPrivate(connection: Int32, silentWithoutDisplay: Bool) -> Int32 {
        let display: X11Display
        do {
            if let wayland = try BackendChoice.wayland() { return WaylandServer.runPrivate(connection: wayland, client: connection) }
            display = try X11Display(keyboardExtension: false)
        } catch {
            if !silentWithoutDisplay {
                _ = try? UnixSocket.readFrame(connection, tag: Wire.requestTag, timeout: 5)
                _ = UnixSocket.writeAll(connection, Wire.Reply(status: Status.noDisplay, error: "xhud: \(error)\n").encoded())
            }
            return Status.noDisplay
        }
        let server = X11Server.make(paths: nil, display: display, listener: -1)
        FontWarmup.loadShaping()
        server.linger = 0
        server.accept(connection)
        return server.display.run()
    }
}
