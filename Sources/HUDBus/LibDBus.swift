#if canImport(Glibc)
import Glibc
#endif
import HUDSystem

/// The few functions of libdbus-1 the server's buses call (the notification daemon, the
/// accessibility bus), loaded with `dlopen` on a bus's own thread once the server is up: linked,
/// libdbus and the seven libraries it brings (libsystemd, libgcrypt, ...) would be mapped and
/// relocated before every server's first frame. Loading twice (both buses) is one mapping.
/// The types the library keeps opaque are raw pointers here; `DBusError` and `DBusMessageIter`
/// are caller-allocated structs whose sizes the library's ABI fixes (see `BusIter`).
package struct LibDBus: @unchecked Sendable {
    package typealias Ptr = UnsafeMutableRawPointer
    package typealias CStr = UnsafePointer<CChar>

    package let errorInit: @convention(c) (Ptr) -> Void
    package let errorFree: @convention(c) (Ptr) -> Void
    package let busGetPrivate: @convention(c) (Int32, Ptr) -> Ptr?
    package let busRequestName: @convention(c) (Ptr, CStr, UInt32, Ptr) -> Int32
    package let setExitOnDisconnect: @convention(c) (Ptr, UInt32) -> Void
    package let getUnixFD: @convention(c) (Ptr, UnsafeMutablePointer<Int32>) -> UInt32
    package let readWrite: @convention(c) (Ptr, Int32) -> UInt32
    package let popMessage: @convention(c) (Ptr) -> Ptr?
    package let send: @convention(c) (Ptr, Ptr, UnsafeMutablePointer<UInt32>?) -> UInt32
    package let flush: @convention(c) (Ptr) -> Void
    package let isConnected: @convention(c) (Ptr) -> UInt32
    package let close: @convention(c) (Ptr) -> Void
    package let connectionUnref: @convention(c) (Ptr) -> Void
    package let messageType: @convention(c) (Ptr) -> Int32
    package let interface: @convention(c) (Ptr) -> CStr?
    package let member: @convention(c) (Ptr) -> CStr?
    package let path: @convention(c) (Ptr) -> CStr?
    package let signature: @convention(c) (Ptr) -> CStr?
    package let sender: @convention(c) (Ptr) -> CStr?
    package let noReply: @convention(c) (Ptr) -> UInt32
    package let newReturn: @convention(c) (Ptr) -> Ptr?
    package let newError: @convention(c) (Ptr, CStr, CStr?) -> Ptr?
    package let newSignal: @convention(c) (CStr, CStr, CStr) -> Ptr?
    package let messageUnref: @convention(c) (Ptr) -> Void
    package let iterInit: @convention(c) (Ptr, Ptr) -> UInt32
    package let iterInitAppend: @convention(c) (Ptr, Ptr) -> Void
    package let iterArgType: @convention(c) (Ptr) -> Int32
    package let iterNext: @convention(c) (Ptr) -> UInt32
    package let iterGetBasic: @convention(c) (Ptr, Ptr) -> Void
    package let iterRecurse: @convention(c) (Ptr, Ptr) -> Void
    package let iterFixedArray: @convention(c) (Ptr, Ptr, UnsafeMutablePointer<Int32>) -> Void
    package let iterAppendBasic: @convention(c) (Ptr, Int32, UnsafeRawPointer) -> UInt32
    package let iterOpen: @convention(c) (Ptr, Int32, CStr?, Ptr) -> UInt32
    package let iterClose: @convention(c) (Ptr, Ptr) -> UInt32
    package let openPrivate: @convention(c) (CStr, Ptr) -> Ptr?
    package let busRegister: @convention(c) (Ptr, Ptr) -> UInt32
    package let uniqueName: @convention(c) (Ptr) -> CStr?
    package let newMethodCall: @convention(c) (CStr?, CStr, CStr?, CStr) -> Ptr?
    package let sendWithReplyAndBlock: @convention(c) (Ptr, Ptr, Int32, Ptr) -> Ptr?
    package let errorName: @convention(c) (Ptr) -> CStr?

    package static let soname = "libdbus-1.so.3"

    /// The session bus's address: `DBUS_SESSION_BUS_ADDRESS`, else systemd's `$XDG_RUNTIME_DIR/bus`;
    /// never libdbus's fallback, which would autolaunch one (a dbus-launch and a daemon that
    /// outlive the server) where none runs.
    package static func sessionBusAddress() -> String? {
        if let a = Environment.value("DBUS_SESSION_BUS_ADDRESS") { return a }
        guard let rt = Environment.value("XDG_RUNTIME_DIR") else { return nil }
        var st = stat()
        return stat(rt + "/bus", &st) == 0 && (st.st_mode & S_IFMT) == S_IFSOCK ? "unix:path=" + rt + "/bus" : nil
    }

    /// The library, or why it cannot be used (not installed, too old).
    package static func load() -> Result<LibDBus, BusFailure> {
        guard let h = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(BusFailure("cannot load \(soname) (\(dlerror().map { String(cString: $0) } ?? "?")); install libdbus-1-3"))
        }
        struct Missing: Error { let name: String }
        func f<T>(_ name: String) throws(Missing) -> T {
            guard let p = dlsym(h, name) else { throw Missing(name: name) }
            return unsafeBitCast(p, to: T.self)
        }
        do throws(Missing) {
            return .success(
                try LibDBus(
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
                    iterOpen: f("dbus_message_iter_open_container"), iterClose: f("dbus_message_iter_close_container"),
                    openPrivate: f("dbus_connection_open_private"), busRegister: f("dbus_bus_register"),
                    uniqueName: f("dbus_bus_get_unique_name"), newMethodCall: f("dbus_message_new_method_call"),
                    sendWithReplyAndBlock: f("dbus_connection_send_with_reply_and_block"),
                    errorName: f("dbus_message_get_error_name")))
        } catch {
            return .failure(BusFailure("\(soname) has no \(error.name)"))
        }
    }
}

/// Why the bus could not be served, in one line for the server's stderr.
package struct BusFailure: Error, CustomStringConvertible, Sendable {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// A caller-allocated `DBusError` (two pointers and flags: 64 bytes are plenty) and its message.
package final class BusError {
    let lib: LibDBus
    package let raw = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
    package init(_ lib: LibDBus) { self.lib = lib; lib.errorInit(raw) }
    deinit { lib.errorFree(raw); raw.deallocate() }
    /// The error's message (and clears it), or `otherwise` when none was set.
    package func take(otherwise: String) -> String {
        let m = raw.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) }
        lib.errorFree(raw)
        lib.errorInit(raw)
        return m ?? otherwise
    }
}
