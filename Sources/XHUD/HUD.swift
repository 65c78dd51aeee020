import Foundation
@_exported import HUDCore
import HUDX11

/// An MBProgressHUD-style HUD for Swift programs: configure, show, update from any change of
/// properties, hide (with delay and completion), and run its event loop.
///
///     let hud = try HUD(parent: .monitor("pointer")) { $0.mode = .annular; $0.label = "Loading" }
///     hud.progressObject = progress            // polled once per frame by the display link
///     hud.show()
///     exit(hud.run())                          // returns when the HUD has been hidden
public final class HUD {
    public let host: X11HUD

    public init(display: String? = nil, parent: ParentSpec = .default, scale: Double? = nil,
                configure: (inout HUDConfiguration) -> Void = { _ in }) throws {
        var c = HUDConfiguration()
        configure(&c)
        host = try X11HUD(display: X11Display(name: display), configuration: c, parent: parent, scale: scale)
        host.onHidden = { [unowned self] in if self.stopsWhenHidden { self.host.stop(exitCode: 0) } }
    }

    /// When true (the default), `run()` returns once the HUD has been hidden.
    public var stopsWhenHidden = true

    public var configuration: HUDConfiguration { host.configuration }
    public var mode: HUDMode { get { configuration.mode } set { host.update { $0.mode = newValue } } }
    public var label: String { get { configuration.label } set { host.update { $0.label = newValue } } }
    public var details: String { get { configuration.details } set { host.update { $0.details = newValue } } }
    public var progress: Double { get { configuration.progress } set { host.update { $0.progress = newValue } } }

    /// Foundation's `Progress`: fractionCompleted drives the indicator; with
    /// `showsProgressDescription`, localizedDescription becomes the details label.
    public var progressObject: Progress? {
        didSet { host.progressSource = progressObject.map { FoundationProgressSource($0) } }
    }
    public var showsProgressDescription: Bool {
        get { host.showsProgressDescription } set { host.showsProgressDescription = newValue }
    }

    public func show(animated: Bool = true) { host.show(animated: animated) }
    public func hide(animated: Bool = true, afterDelay delay: Double = 0, completion: (() -> Void)? = nil) {
        host.hide(animated: animated, afterDelay: delay, completion: completion)
    }

    /// Runs the event loop on this thread until the HUD is hidden (or `host.stop`).
    public func run() -> Int32 { host.run() }
}

/// Reads a Foundation `Progress` (thread-safe to read) for the display link.
public final class FoundationProgressSource: ProgressSource, @unchecked Sendable {
    public let progress: Progress
    public init(_ progress: Progress) { self.progress = progress }

    public func snapshot() -> ProgressSnapshot {
        let f = progress.fractionCompleted
        let text = progress.localizedDescription ?? ""
        return ProgressSnapshot(fraction: f.isFinite ? min(max(f, 0), 1) : 0, isCancelled: progress.isCancelled,
                                description: text.isEmpty ? nil : text)
    }
}
