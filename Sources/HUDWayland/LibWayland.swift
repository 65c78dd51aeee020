#if canImport(Glibc)
import Glibc
#endif
import CWayland

/// The few functions of libwayland-client the backend calls, loaded with `dlopen` when a Wayland
/// display is chosen: an X11 session never maps the library. Requests go through the one
/// non-variadic marshaller (`wl_proxy_marshal_array_flags`), events through one dispatcher per
/// proxy (`wl_proxy_add_dispatcher`), so that no listener struct or variadic call is needed.
struct LibWayland {
    let connect: xhud_wl_display_connect
    let disconnect: xhud_wl_display_disconnect
    let getFD: xhud_wl_display_int
    let flush: xhud_wl_display_int
    let roundtrip: xhud_wl_display_int
    let prepareRead: xhud_wl_display_int
    let readEvents: xhud_wl_display_int
    let cancelRead: @convention(c) (OpaquePointer?) -> Void
    let dispatchPending: xhud_wl_display_int
    let getError: xhud_wl_display_int
    let marshal: xhud_wl_proxy_marshal_array_flags
    let addDispatcher: xhud_wl_proxy_add_dispatcher
    let destroy: xhud_wl_proxy_destroy
    let version: xhud_wl_proxy_get_version

    static let soname = "libwayland-client.so.0"

    /// The library, or why it cannot be used.
    static func load() -> Result<LibWayland, WaylandError> {
        guard let h = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(.library("cannot load \(soname) (install libwayland-client0)"))
        }
        func sym<T>(_ name: String, _: T.Type) throws(WaylandError) -> T {
            guard let p = dlsym(h, name) else { throw .library("\(soname) has no \(name) (1.20 or later is needed)") }
            return unsafeBitCast(p, to: T.self)
        }
        do {
            return .success(
                LibWayland(
                    connect: try sym("wl_display_connect", xhud_wl_display_connect.self),
                    disconnect: try sym("wl_display_disconnect", xhud_wl_display_disconnect.self),
                    getFD: try sym("wl_display_get_fd", xhud_wl_display_int.self),
                    flush: try sym("wl_display_flush", xhud_wl_display_int.self),
                    roundtrip: try sym("wl_display_roundtrip", xhud_wl_display_int.self),
                    prepareRead: try sym("wl_display_prepare_read", xhud_wl_display_int.self),
                    readEvents: try sym("wl_display_read_events", xhud_wl_display_int.self),
                    cancelRead: try sym("wl_display_cancel_read", (@convention(c) (OpaquePointer?) -> Void).self),
                    dispatchPending: try sym("wl_display_dispatch_pending", xhud_wl_display_int.self),
                    getError: try sym("wl_display_get_error", xhud_wl_display_int.self),
                    marshal: try sym("wl_proxy_marshal_array_flags", xhud_wl_proxy_marshal_array_flags.self),
                    addDispatcher: try sym("wl_proxy_add_dispatcher", xhud_wl_proxy_add_dispatcher.self),
                    destroy: try sym("wl_proxy_destroy", xhud_wl_proxy_destroy.self),
                    version: try sym("wl_proxy_get_version", xhud_wl_proxy_get_version.self)))
        } catch {
            return .failure(error)
        }
    }
}
