#if canImport(Glibc)
import Glibc
#endif

/// The few functions of libdbus-1 the notification bus calls, loaded with `dlopen` on the bus's
/// own thread when notifications are turned on: linked, libdbus and the seven libraries it brings
/// (libsystemd, libgcrypt, ...) would be mapped and relocated before every server's first frame.
/// The types the library keeps opaque are raw pointers here; `DBusError` and `DBusMessageIter`
/// are caller-allocated structs whose sizes the library's ABI fixes (see `BusIter`).
struct LibDBus {
    typealias Ptr = UnsafeMutableRawPointer
    typealias CStr = UnsafePointer<CChar>

    let errorInit: @convention(c) (Ptr) -> Void
    let errorFree: @convention(c) (Ptr) -> Void
    let busGetPrivate: @convention(c) (Int32, Ptr) -> Ptr?
    let busRequestName: @convention(c) (Ptr, CStr, UInt32, Ptr) -> Int32
    let setExitOnDisconnect: @convention(c) (Ptr, UInt32) -> Void
    let getUnixFD: @convention(c) (Ptr, UnsafeMutablePointer<Int32>) -> UInt32
    let readWrite: @convention(c) (Ptr, Int32) -> UInt32
    let popMessage: @convention(c) (Ptr) -> Ptr?
    let send: @convention(c) (Ptr, Ptr, UnsafeMutablePointer<UInt32>?) -> UInt32
    let flush: @convention(c) (Ptr) -> Void
    let isConnected: @convention(c) (Ptr) -> UInt32
    let close: @convention(c) (Ptr) -> Void
    let connectionUnref: @convention(c) (Ptr) -> Void
    let messageType: @convention(c) (Ptr) -> Int32
    let interface: @convention(c) (Ptr) -> CStr?
    let member: @convention(c) (Ptr) -> CStr?
    let path: @convention(c) (Ptr) -> CStr?
    let signature: @convention(c) (Ptr) -> CStr?
    let sender: @convention(c) (Ptr) -> CStr?
    let noReply: @convention(c) (Ptr) -> UInt32
    let newReturn: @convention(c) (Ptr) -> Ptr?
    let newError: @convention(c) (Ptr, CStr, CStr?) -> Ptr?
    let newSignal: @convention(c) (CStr, CStr, CStr) -> Ptr?
    let messageUnref: @convention(c) (Ptr) -> Void
    let iterInit: @convention(c) (Ptr, Ptr) -> UInt32
    let iterInitAppend: @convention(c) (Ptr, Ptr) -> Void
    let iterArgType: @convention(c) (Ptr) -> Int32
    let iterNext: @convention(c) (Ptr) -> UInt32
    let iterGetBasic: @convention(c) (Ptr, Ptr) -> Void
    let iterRecurse: @convention(c) (Ptr, Ptr) -> Void
    let iterFixedArray: @convention(c) (Ptr, Ptr, UnsafeMutablePointer<Int32>) -> Void
    let iterAppendBasic: @convention(c) (Ptr, Int32, UnsafeRawPointer) -> UInt32
    let iterOpen: @convention(c) (Ptr, Int32, CStr?, Ptr) -> UInt32
    let iterClose: @convention(c) (Ptr, Ptr) -> UInt32

    static let soname = "libdbus-1.so.3"

    /// The library, or why it cannot be used (not installed, too old).
    static func load() -> Result<LibDBus, BusFailure> {
        guard let h = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(BusFailure("cannot load \(soname) (\(dlerror().map { String(cString: $0) } ?? "?")); install libdbus-1-3"))
        }
        struct Missing: Error { let name: String }
        func f<T>(_ name: String) throws(Missing) -> T {
            guard let p = dlsym(h, name) else { throw Missing(name: name) }
            return unsafeBitCast(p, to: T.self)
        }
        do throws(Missing) {
            return .success(try LibDBus(
                errorInit: f("dbus_error_init"), errorFree: f("dbus_error_free"), busGetPrivate: f("dbus_bus_get_private"),
                busRequestName: f("dbus_bus_request_name"), setExitOnDisconnect: f("dbus_connection_set_exit_on_disconnect"),
                getUnixFD: f("dbus_connection_get_unix_fd"), readWrite: f("dbus_connection_read_write"),
                popMessage: f("dbus_connection_pop_message"), send: f("dbus_connection_send"), flush: f("dbus_connection_flush"),
                isConnected: f("dbus_connection_get_is_connected"), close: f("dbus_connection_close"),
                connectionUnref: f("dbus_connection_unref"), messageType: f("dbus_message_get_type"),
                interface: f("dbus_message_get_interface"), member: f("dbus_message_get_member"), path: f("dbus_message_get_path"),
                signature: f("dbus_message_get_signature"), sender: f("dbus_message_get_sender"),
                noReply: f("dbus_message_get_no_reply"), newReturn: f("dbus_message_new_method_return"),
                newError: f("dbus_message_new_error"), newSignal: f("dbus_message_new_signal"), messageUnref: f("dbus_message_unref"),
                iterInit: f("dbus_message_iter_init"), iterInitAppend: f("dbus_message_iter_init_append"),
                iterArgType: f("dbus_message_iter_get_arg_type"), iterNext: f("dbus_message_iter_next"),
                iterGetBasic: f("dbus_message_iter_get_basic"), iterRecurse: f("dbus_message_iter_recurse"),
                iterFixedArray: f("dbus_message_iter_get_fixed_array"), iterAppendBasic: f("dbus_message_iter_append_basic"),
                iterOpen: f("dbus_message_iter_open_container"), iterClose: f("dbus_message_iter_close_container")))
        } catch {
            return .failure(BusFailure("\(soname) has no \(error.name)"))
        }
    }
}

/// Why the bus could not be served, in one line for the server's stderr.
public struct BusFailure: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
