#if canImport(Glibc)
import Glibc
#endif
import CX11
import CXFixes
import HUDCore

/// What lies under a HUD that blends over a copy of the screen (no compositor) can change
/// unseen: a window beneath draws, but the HUD covers what it drew. XDamage on the root reports
/// drawing on the screen (as rectangles, without a round trip); drawing that reaches a
/// HUD's edge from outside (a terminal scrolling on under it, a page repainting) says that its
/// copy is out of date, and the HUD's bezel rises to opaque rather than show what is gone.
/// Drawing inside this process's windows is its own, and drawing where one of them just was
/// (the windows beneath repainting what a move or a hide uncovered) says nothing of what lies
/// under it. Only what grows the damaged region is reported and the region is repaired only
/// when a HUD maps: a spinner redrawing its window sends one report, not one a frame; a new
/// HUD clears it, so that its place is watched afresh. Watched only while such a HUD is mapped. Owned by the
/// loop's thread.
final class DamageWatch {
    let eventBase: Int32
    private let display: X11Display
    private var damage: Damage = 0
    /// Where this process's windows were until a moment ago, and until when that counts: from
    /// the first look at the events after the move, so that a loop kept from running by a
    /// busy machine still recognises the repaint it caused.
    private var vacated: [(rect: Rect, until: Double?)] = []
    static let vacatedFor = 0.5

    init?(display: X11Display) {
        var event: Int32 = 0, error: Int32 = 0
        guard XDamageQueryExtension(display.handle, &event, &error) != 0 else { return nil }
        eventBase = event
        self.display = display
    }

    var isWatching: Bool { damage != 0 }

    /// The request that made the damage object: the X server reports the whole root as damaged
    /// when it is made, which says nothing.
    private var createdAt: UInt = 0

    func start() {
        guard damage == 0 else { return }
        createdAt = XNextRequest(display.handle)
        damage = XDamageCreate(display.handle, display.root, XDamageReportDeltaRectangles)
    }

    /// The requests that repaired part of the region: the X server reports the whole rest of
    /// the region again after each (its reports carry the request's serial), which says nothing
    /// new. The region is destroyed by the next request, so later drawing carries a later serial.
    /// Kept until an event of a later request arrives (events come in the order of requests): a
    /// burst of HUDs makes a repair each before the loop reads the first report.
    private var repairs: [UInt] = []

    /// A HUD maps: what was damaged before is forgotten, so that drawing at its edge is
    /// reported again. The whole region is: after a repair of part of it the X server reports
    /// all the rest again, hundreds of rectangles of a long-lived desktop for each HUD that
    /// maps (a journal's replay maps dozens in a few frames), where an empty region reports
    /// nothing until something is drawn.
    func clear() {
        guard damage != 0 else { return }
        repairs.append(XNextRequest(display.handle))
        XDamageSubtract(display.handle, damage, 0, 0)
    }

    func stop() {
        guard damage != 0 else { return }
        XDamageDestroy(display.handle, damage)
        damage = 0
        vacated = []
        repairs = []
    }

    /// A window of ours left `rect` (moved or unmapped).
    func vacate(_ rect: Rect, now: Double) {
        guard damage != 0 else { return }
        vacated.removeAll { $0.until.map { $0 < now } ?? false }
        vacated.append((rect, nil))
    }

    /// The outputs whose copy of the screen an event of the watch makes out of date.
    func outdated(by ev: inout XEvent, outputs: [X11Output], now: Double) -> [X11Output] {
        guard ev.type == eventBase + XDamageNotify else { return [] }
        repairs.removeAll { $0 < ev.xany.serial }
        guard ev.xany.serial > createdAt, !repairs.contains(ev.xany.serial) else { return [] }

        let a = withUnsafePointer(to: &ev) { $0.withMemoryRebound(to: XDamageNotifyEvent.self, capacity: 1) { $0.pointee.area } }
        let r = Rect(x: Double(a.x), y: Double(a.y), width: Double(a.width), height: Double(a.height))
        if outputs.contains(where: { $0.isMapped && $0.rect.contains(r) }) { return [] }
        for i in vacated.indices where vacated[i].until == nil { vacated[i].until = now + Self.vacatedFor }
        vacated.removeAll { $0.until! < now }
        if vacated.contains(where: { !$0.rect.intersection(r).isEmpty }) { return [] }
        let hit = outputs.filter { o in
            o.watchesBeneath && !o.rect.insetBy(dx: -1, dy: -1).intersection(r).isEmpty
        }
        return hit
    }
}
