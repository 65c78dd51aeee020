#if canImport(Glibc)
import Glibc
#endif
import CX11
import HUDSystem

/// X errors, recorded instead of ending the process (Xlib's default handler exits): on xhud's
/// own connections, for `X11Display.checked` to read. Every other
/// connection's errors go to the handler that was there before: an application with its own
/// Xlib connection keeps its own. Xlib has one handler per process, called on the thread of
/// the connection that erred: the state is behind a lock.
struct XErrors {
    /// xhud's connections, and the handler that had the others before.
    var own = Set<UInt>()
    var installed = false
    var previous: XErrorHandler?
    /// The request serial of the last error, and how many there were: `checked` tells its own
    /// errors from earlier ones by serial, with one round trip instead of two.
    var lastSerial: UInt = 0
    var count = 0
}

let xErrors = Locked(XErrors())

/// XHUD_DEBUG_X=1 prints every X error the handler records.
private let debugXErrors = Environment.isSet("XHUD_DEBUG_X")

/// Xlib's error handler for the process (installed by `X11Display.installErrorHandler`).
func handleXError(_ display: OpaquePointer?, _ event: UnsafeMutablePointer<XErrorEvent>?) -> Int32 {
    let key = display.map { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer($0))) } ?? 0
    let forward: XErrorHandler? = xErrors.withLock { e in
        if !e.own.contains(key), let previous = e.previous { return previous }
        e.lastSerial = event?.pointee.serial ?? UInt.max
        e.count &+= 1
        return nil
    }
    if let forward { return forward(display, event) }
    if debugXErrors, let e = event?.pointee {
        Console.error("xhud: X error \(e.error_code) on request \(e.request_code).\(e.minor_code)\n")
    }
    return 0
}
