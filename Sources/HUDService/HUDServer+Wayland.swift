#if canImport(Glibc)
import Glibc
#endif
import HUDBus
import HUDCore
import HUDSettings
import HUDEngine
import HUDRender
import HUDSocket
import HUDSystem
import HUDWayland

/// The server on a Wayland compositor.
package typealias WaylandServer = HUDServer<WaylandHUDDisplay>

extension HUDServer where Display == WaylandHUDDisplay {
    static func make(paths: ServerPaths?, connection: WaylandConnection, listener: Int32) -> WaylandServer {
        let loop = WaylandLoop(connection: connection)
        loop.textShaper = TextShaper.shared
        let server = WaylandServer(paths: paths, display: WaylandHUDDisplay(loop), listener: listener)
        server.desktop = .gtkSettings()
        loop.installSignalHandlers()
        loop.onSignal = { [unowned server] _ in server.exit() }
        _ = loop.addTimer(after: 0.05) { [unowned loop] in
            if FontWarmup.keptMatchesHeld { _ = loop.addTimer(after: 0.35) { FontWarmup.settle() } } else { FontWarmup.settle() }
        }
        // The accessibility bus is the session bus's to tell (org.a11y.Bus), on Wayland as on X11.
        server.accessibility = AccessibilityRelay(server: server)
        // The desktop's light or dark preference, after the request that started the server.
        _ = loop.addTimer(after: 0) { [unowned server] in
            server.appearance = AppearanceWatch()
            server.appearance?.start()
        }
        return server
    }

    /// `xhud server` on Wayland (the lock and socket are the caller's).
    static func runForeground(paths: ServerPaths, connection: WaylandConnection, listener: Int32, notifications: Bool, replace: Bool) -> Int32 {
        let server = make(paths: paths, connection: connection, listener: listener)
        server.lingersForever = true
        server.takeOverFromDeadServer()
        FontWarmup.loadPango()
        if notifications {
            server.notifications = NotificationRelay(server: server, directory: paths.directory, replace: replace)
            server.notifications?.start()
        }
        return server.display.run()
    }

    /// A server started by a client, on Wayland.
    static func runStarted(paths: ServerPaths, connection: WaylandConnection, listener: Int32) -> Int32 {
        let server = make(paths: paths, connection: connection, listener: listener)
        FontWarmup.loadShaping()
        server.scheduleExit()
        _ = server.loop.addTimer(after: 0) { server.takeOverFromDeadServer() }
        return server.display.run()
    }

    /// A client's private server, on Wayland.
    static func runPrivate(connection: WaylandConnection, client: Int32) -> Int32 {
        let server = make(paths: nil, connection: connection, listener: -1)
        FontWarmup.loadShaping()
        server.linger = 0
        server.accept(client)
        return server.display.run()
    }
}
