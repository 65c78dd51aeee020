#if canImport(Glibc)
import Glibc
#endif
import CWayland
import HUDCore

/// What takes the clicks around a HUD that blocks input (its mask, `clear` included): an
/// invisible layer surface on the overlay layer over the HUD's region, as X11's input-only
/// window is, its input region the region but the HUD's window (compositors stack a layer's
/// surfaces differently: sway 1.7 puts the older above). Its one transparent pixel is stretched
/// over the region by the viewporter; without one, the buffer is the region's size (a fresh
/// memfd, never written: zeros are transparent).
final class InputBlocker {
    private unowned let connection: WaylandConnection
    private let surface: OpaquePointer
    private let layerSurface: OpaquePointer
    private var viewport: OpaquePointer?
    private var buffer: ShmBuffer?
    private let placement: LayerPlacement
    let scale: Double
    let region: Rect
    private var hole: Rect?

    init?(connection: WaylandConnection, screen: WaylandScreen, scale: Double, namesOutput: Bool, region: Rect, hole: Rect) {
        guard let compositor = connection.compositor, let shell = connection.layerShell,
            let s = connection.request(compositor, 0, [wl_argument(n: 0)], creating: xhud_wl_surface_interface())
        else { return nil }
        let l = "xhud-blocker".withCString {
            connection.request(
                shell, 0,
                [wl_argument(n: 0), wl_argument(o: s), wl_argument(o: namesOutput ? screen.proxy : nil), wl_argument(u: 3), wl_argument(s: $0)],
                creating: xhud_layer_surface_interface())
        }
        guard let l else { connection.destroy(s, opcode: 0); return nil }
        self.connection = connection
        surface = s
        layerSurface = l
        self.scale = scale
        self.region = region
        placement = LayerPlacement(rect: region, output: screen.logicalSize, scale: scale)
        connection.listen(l) { [unowned self] op, args in
            guard op == 0 else { return }  // configure
            connection.request(layerSurface, 6, [wl_argument(u: args[0].u)])
            attach()
        }
        connection.request(l, 0, [wl_argument(u: UInt32(placement.width)), wl_argument(u: UInt32(placement.height))])
        connection.request(l, 1, [wl_argument(u: placement.anchor)])
        let m = placement.margins
        connection.request(
            l, 3, [wl_argument(i: Int32(m.top)), wl_argument(i: Int32(m.right)), wl_argument(i: Int32(m.bottom)), wl_argument(i: Int32(m.left))])
        connection.request(l, 2, [wl_argument(i: -1)])
        connection.request(l, 4, [wl_argument(u: 0)])
        if let viewporter = connection.viewporter {
            viewport = connection.request(viewporter, 1, [wl_argument(n: 0), wl_argument(o: s)], creating: xhud_viewport_interface())
            if let viewport {
                connection.request(viewport, 2, [wl_argument(i: Int32(placement.width)), wl_argument(i: Int32(placement.height))])
            }
        } else if connection.compositorVersion >= 3 {
            connection.request(s, 8, [wl_argument(i: Int32(scale.rounded()))])
        }
        exclude(hole)
        connection.request(s, 6, [])
    }

    /// The HUD's window (device pixels on the output) takes its own clicks: left out of the
    /// input region. Applied with the next commit.
    func exclude(_ r: Rect) {
        guard r != hole else { return }
        hole = r
        let k = scale
        let local = Rect(
            x: ((r.x - region.x) / k).rounded(.down), y: ((r.y - region.y) / k).rounded(.down),
            width: (r.width / k).rounded(.up), height: (r.height / k).rounded(.up))
        guard let all = connection.region([Rect(x: 0, y: 0, width: Double(placement.width), height: Double(placement.height))]) else { return }
        connection.request(
            all, 2,
            [
                wl_argument(i: Int32(local.x)), wl_argument(i: Int32(local.y)),
                wl_argument(i: Int32(local.width)), wl_argument(i: Int32(local.height)),
            ])
        connection.request(surface, 5, [wl_argument(o: all)])
        connection.destroy(all, opcode: 0)
    }

    /// Sends a new input region (after `exclude`) on its own.
    func commit() { connection.request(surface, 6, []) }

    deinit {
        if let viewport { connection.destroy(viewport, opcode: 0) }
        connection.destroy(layerSurface, opcode: 7)
        connection.destroy(surface, opcode: 0)
        buffer = nil
    }

    /// The pixel (or the region's worth of them), once: the surface takes input wherever it is.
    private func attach() {
        guard buffer == nil else { return }
        let side = viewport != nil ? (1, 1) : (placement.bufferWidth, placement.bufferHeight)
        guard let b = ShmBuffer(connection: connection, width: side.0, height: side.1) else { return }
        buffer = b
        connection.request(surface, 1, [wl_argument(o: b.buffer), wl_argument(i: 0), wl_argument(i: 0)])
        connection.request(surface, 2, [wl_argument(i: 0), wl_argument(i: 0), wl_argument(i: Int32.max), wl_argument(i: Int32.max)])
        connection.request(surface, 6, [])
    }
}
