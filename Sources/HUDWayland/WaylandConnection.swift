#if canImport(Glibc)
import Glibc
#endif
import CWayland
import HUDCore
import HUDSystem

/// One connection to a Wayland compositor: the globals a HUD needs (compositor, shared memory,
/// layer shell, outputs, a seat's pointer and keyboard), and every proxy's events delivered to a handler of
/// its own. Owned by the loop's thread, as every proxy is.
package final class WaylandConnection {
    let lib: LibWayland
    let display: OpaquePointer
    private(set) var registry: OpaquePointer?
    private(set) var compositor: OpaquePointer?
    private(set) var compositorVersion: UInt32 = 0
    private(set) var shm: OpaquePointer?
    private(set) var layerShell: OpaquePointer?
    private(set) var viewporter: OpaquePointer?
    private(set) var fractionalScaler: OpaquePointer?
    private var xdgOutputs: OpaquePointer?
    private(set) var screens: [WaylandScreen] = []
    private var seat: OpaquePointer?
    private var pointer: OpaquePointer?
    private var keyboard: OpaquePointer?
    private var handlers: [OpaquePointer: (UInt32, UnsafeMutablePointer<wl_argument>) -> Void] = [:]

    /// The pointer's surface and position on it (surface coordinates), and its button events.
    private(set) var pointerSurface: OpaquePointer?
    private(set) var pointerPosition = Point.zero
    var onButton: ((OpaquePointer, Point, UInt32, Bool) -> Void)?
    /// The surface with the keyboard's focus (one that asked for it: a HUD that blocks input),
    /// and Escape pressed on it.
    private(set) var keyboardSurface: OpaquePointer?
    var onEscape: ((OpaquePointer) -> Void)?
    /// An output changed (its mode, scale or logical size, once it says it is done) or went away.
    var onScreenChanged: ((WaylandScreen) -> Void)?
    var onScreenRemoved: ((WaylandScreen) -> Void)?

    /// A buffer can be shown at a fractional scale: the compositor says which
    /// (wp_fractional_scale_v1) and the viewporter sizes the buffer to the surface.
    var scalesFractionally: Bool { fractionalScaler != nil && viewporter != nil }

    /// Connects to `$WAYLAND_DISPLAY` and learns its globals and outputs (two round trips).
    package init() throws(WaylandError) {
        let lib: LibWayland
        switch LibWayland.load() {
        case .success(let l): lib = l
        case .failure(let e): throw e
        }
        guard let d = lib.connect(nil) else {
            throw .noDisplay("cannot connect to the Wayland display '\(Environment.value("WAYLAND_DISPLAY") ?? "wayland-0")'")
        }
        self.lib = lib
        display = d
        registry = request(d, 1, [], creating: xhud_wl_registry_interface(), version: 1)
        listen(registry) { [unowned self] op, args in
            switch op {
            case 0: if let name = args[1].s { bindGlobal(args[0].u, String(cString: name), args[2].u) }
            case 1: removeGlobal(args[0].u)
            default: break
            }
        }
        _ = lib.roundtrip(d)
        _ = lib.roundtrip(d)  // the outputs' modes, scales and logical sizes
        guard compositor != nil, shm != nil else { throw .missing("the Wayland compositor offers no wl_compositor or wl_shm") }
        guard layerShell != nil else {
            throw .missing(
                "the Wayland compositor does not offer zwlr_layer_shell_v1 (sway, Hyprland, river and KDE do; GNOME does not: xhud draws through XWayland there)"
            )
        }
        guard !screens.isEmpty else { throw .missing("the Wayland compositor has no output") }
    }

    deinit { lib.disconnect(display) }

    var fd: Int32 { lib.getFD(display) }

    private func bindGlobal(_ name: UInt32, _ interface: String, _ version: UInt32) {
        func bind(_ iface: UnsafePointer<wl_interface>, _ v: UInt32) -> OpaquePointer? {
            interface.withCString { s in
                var args = [wl_argument(u: name), wl_argument(s: s), wl_argument(u: v), wl_argument(n: 0)]
                return args.withUnsafeMutableBufferPointer {
                    lib.marshal(registry, 0, iface, v, 0, $0.baseAddress)
                }
            }
        }
        switch interface {
        case "wl_compositor":
            compositorVersion = min(version, 4)
            compositor = bind(xhud_wl_compositor_interface(), compositorVersion)
        case "wl_shm": shm = bind(xhud_wl_shm_interface(), 1)
        case "zwlr_layer_shell_v1": layerShell = bind(xhud_layer_shell_interface(), min(version, 4))
        case "wp_viewporter": viewporter = bind(xhud_viewporter_interface(), 1)
        case "wp_fractional_scale_manager_v1": fractionalScaler = bind(xhud_fractional_scale_manager_interface(), 1)
        case "zxdg_output_manager_v1":
            xdgOutputs = bind(xhud_xdg_output_manager_interface(), min(version, 3))
            for s in screens { describe(s.proxy) }
        case "wl_output":
            guard let o = bind(xhud_wl_output_interface(), min(version, 4)) else { return }
            screens.append(WaylandScreen(proxy: o, name: name))
            listen(o) { [unowned self] op, args in
                guard let i = screens.firstIndex(where: { $0.proxy == o }) else { return }
                switch op {
                case 1 where args[0].u & 1 != 0:  // mode, the current one
                    screens[i].pixelWidth = Int(args[1].i)
                    screens[i].pixelHeight = Int(args[2].i)
                    if args[3].i > 0 { screens[i].refresh = Double(args[3].i) / 1000 }
                case 2: onScreenChanged?(screens[i])  // done
                case 3: screens[i].bufferScale = max(1, Int(args[0].i))
                case 4: screens[i].outputName = args[0].s.map { String(cString: $0) }  // since version 4
                default: break
                }
            }
            describe(o)
        case "wl_seat" where seat == nil:
            seat = bind(xhud_wl_seat_interface(), min(version, 5))
            listen(seat) { [unowned self] op, args in
                guard op == 0 else { return }  // capabilities
                // A device gone (a virtual keyboard's client ended) leaves its object inert: it is
                // released, and a new one asked for when a device comes back.
                let caps = args[0].u
                if caps & 1 != 0, pointer == nil {
                    pointer = request(seat!, 0, [wl_argument(n: 0)], creating: xhud_wl_pointer_interface())
                    listen(pointer) { [unowned self] op, args in pointerEvent(op, args) }
                } else if caps & 1 == 0, let p = pointer {
                    release(p, opcode: 1)
                    pointer = nil
                    pointerSurface = nil
                }
                if caps & 2 != 0, keyboard == nil {
                    keyboard = request(seat!, 1, [wl_argument(n: 0)], creating: xhud_wl_keyboard_interface())
                    listen(keyboard) { [unowned self] op, args in keyboardEvent(op, args) }
                } else if caps & 2 == 0, let k = keyboard {
                    release(k, opcode: 0)
                    keyboard = nil
                    keyboardSurface = nil
                }
            }
        default: break
        }
    }

    /// Asks an output's logical size (xdg-output), when the compositor offers it.
    private func describe(_ output: OpaquePointer) {
        guard let manager = xdgOutputs, let i = screens.firstIndex(where: { $0.proxy == output }), screens[i].xdgOutput == nil,
            let x = request(manager, 1, [wl_argument(n: 0), wl_argument(o: output)], creating: xhud_xdg_output_interface())
        else { return }
        screens[i].xdgOutput = x
        listen(x) { [unowned self] op, args in
            guard op == 1, let i = screens.firstIndex(where: { $0.xdgOutput == x }) else { return }  // logical_size
            let changed = screens[i].logicalWidth != Int(args[0].i) || screens[i].logicalHeight != Int(args[1].i)
            screens[i].logicalWidth = Int(args[0].i)
            screens[i].logicalHeight = Int(args[1].i)
            // Said at once: compositors send it after wl_output's done of the same change (a scale).
            if changed { onScreenChanged?(screens[i]) }
        }
    }

    /// A global gone: an output unplugged (or turned off) is forgotten, and said.
    private func removeGlobal(_ name: UInt32) {
        guard let i = screens.firstIndex(where: { $0.name == name }) else { return }
        let gone = screens.remove(at: i)
        if let x = gone.xdgOutput { destroy(x, opcode: 0) }
        release(gone.proxy, opcode: 0)
        onScreenRemoved?(gone)
    }

    private func pointerEvent(_ op: UInt32, _ args: UnsafeMutablePointer<wl_argument>) {
        func fixed(_ f: wl_fixed_t) -> Double { Double(f) / 256 }
        switch op {
        case 0:  // enter
            pointerSurface = args[1].o
            pointerPosition = Point(x: fixed(args[2].f), y: fixed(args[3].f))
        case 1: pointerSurface = nil  // leave
        case 2: pointerPosition = Point(x: fixed(args[1].f), y: fixed(args[2].f))  // motion
        case 3:  // button
            if let s = pointerSurface { onButton?(s, pointerPosition, args[2].u, args[3].u == 1) }
        default: break
        }
    }

    /// Keys reach only a surface that asked for the keyboard: Escape is all it hears, read as
    /// the evdev code every keymap gives it (no keymap is read: its descriptor is closed).
    private func keyboardEvent(_ op: UInt32, _ args: UnsafeMutablePointer<wl_argument>) {
        switch op {
        case 0: close(args[1].h)  // keymap
        case 1: keyboardSurface = args[1].o  // enter
        case 2: keyboardSurface = nil  // leave
        case 3:  // key: KEY_ESC (1), pressed
            if args[2].u == 1, args[3].u == 1, let s = keyboardSurface { onEscape?(s) }
        default: break
        }
    }

    /// `release` (version 3 on: wl_seat's devices, wl_output) or, before it, the object forgotten here.
    private func release(_ proxy: OpaquePointer, opcode: UInt32) {
        if lib.version(proxy) >= 3 { destroy(proxy, opcode: opcode) } else { forget(proxy) }
    }

    // MARK: Requests and events

    /// Sends request `opcode` on `proxy`; `creating`: the interface of the object it makes (its
    /// new_id argument is in `args`), of `version` (default: the proxy's).
    @discardableResult
    func request(
        _ proxy: OpaquePointer, _ opcode: UInt32, _ args: [wl_argument], creating: UnsafePointer<wl_interface>? = nil,
        version: UInt32? = nil, destroying: Bool = false
    ) -> OpaquePointer? {
        var a = args
        let v = version ?? lib.version(proxy)
        return a.withUnsafeMutableBufferPointer { lib.marshal(proxy, opcode, creating, v, destroying ? 1 : 0, $0.baseAddress) }
    }

    /// Delivers `proxy`'s events to `handler` (opcode, arguments) until `forget`.
    func listen(_ proxy: OpaquePointer?, _ handler: @escaping (UInt32, UnsafeMutablePointer<wl_argument>) -> Void) {
        guard let proxy else { return }
        handlers[proxy] = handler
        _ = lib.addDispatcher(
            proxy,
            { implementation, target, opcode, _, args in
                guard let implementation, let target, let args else { return 0 }
                let c = Unmanaged<WaylandConnection>.fromOpaque(implementation).takeUnretainedValue()
                c.handlers[OpaquePointer(target)]?(opcode, args)
                return 0
            }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// Destroys a proxy whose interface has no destructor request (callbacks) or after one.
    func forget(_ proxy: OpaquePointer) {
        handlers[proxy] = nil
        lib.destroy(proxy)
    }

    /// Sends `opcode` (a destructor) and forgets the proxy.
    func destroy(_ proxy: OpaquePointer, opcode: UInt32) {
        handlers[proxy] = nil
        request(proxy, opcode, [], destroying: true)
    }

    /// A region of rectangles (surface coordinates), for an input region.
    func region(_ rects: [Rect]) -> OpaquePointer? {
        guard let compositor, let r = request(compositor, 1, [wl_argument(n: 0)], creating: xhud_wl_region_interface()) else { return nil }
        for q in rects {
            request(r, 1, [wl_argument(i: Int32(q.x)), wl_argument(i: Int32(q.y)), wl_argument(i: Int32(q.width)), wl_argument(i: Int32(q.height))])
        }
        return r
    }

    /// The screen an output name or index picks. Unnamed (or `pointer`, `focused`) where there
    /// are several: the compositor's choice (`compositorPicks`, the output the user is on), first
    /// guessed to be the first. `primary`: the first, Wayland having no primary output.
    func screen(named which: String?) throws(WaylandError) -> (screen: WaylandScreen, compositorPicks: Bool) {
        guard let first = screens.first else { throw .missing("the Wayland compositor has no output") }
        guard let which, !["pointer", "focused", "primary"].contains(which) else {
            return (first, which != "primary" && screens.count > 1)
        }
        if let s = screens.first(where: { $0.outputName == which }) { return (s, false) }
        if let i = Int(which), screens.indices.contains(i) { return (screens[i], false) }
        let names = screens.compactMap(\.outputName).joined(separator: ", ")
        throw .missing("no Wayland output \(which): outputs are numbered 0 to \(screens.count - 1)" + (names.isEmpty ? "" : " (\(names))"))
    }
}
