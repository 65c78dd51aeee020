#if canImport(Glibc)
import Glibc
#endif
import HUDNotifications
import HUDSystem

/// Opens a notification body's link with `xdg-open`, as a notification daemon does when the
/// link is clicked. Only web and mail addresses: a `file:` or other URI handed to xdg-open by
/// any program that can send a notification could open or run what the user did not choose.
enum LinkOpener {
    /// The body's `index`-th link (`NotificationMarkup.links`), when it may be opened.
    static func link(_ index: Int?, in body: String) -> String? {
        let links = NotificationMarkup.links(body)
        guard let index, links.indices.contains(index), let link = links[index] else { return nil }
        let lower = link.lowercased()
        guard ["http://", "https://", "mailto:"].contains(where: { lower.hasPrefix($0) }),
            !link.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true })
        else { return nil }
        return link
    }

    /// Starts `xdg-open URL` (its output to /dev/null) and reaps it on a thread of its own:
    /// the loop neither waits for the browser nor leaves a zombie. False when it could not start.
    @discardableResult
    static func open(_ url: String, opener: String = "xdg-open") -> Bool {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(opener), strdup(url), nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, opener, &actions, nil, &argv, environ) == 0 else { return false }
        let child = pid
        let reaped = DetachedThread.start(name: "xhud-open") {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        }
        if !reaped { var status: Int32 = 0; _ = waitpid(child, &status, WNOHANG) }
        return true
    }
}
