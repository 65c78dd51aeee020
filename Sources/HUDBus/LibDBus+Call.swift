extension LibDBus {
    /// A method call that waits up to `timeout` ms for its reply (on a thread of the caller's
    /// own: a bus thread), its first value read; nil on an error (no such name or method) or a
    /// reply without a value.
    package func callAndWait<T>(
        _ c: Ptr, _ destination: String, _ path: String, _ interface: String, _ member: String, _ args: [BusValue],
        timeout: Int32, read: (BusIter) -> T?
    ) -> T? {
        guard let m = newMethodCall(destination, path, interface, member) else { return nil }
        defer { messageUnref(m) }
        let it = BusIter.appending(self, m)
        for a in args { it.append(a) }
        let error = BusError(self)
        guard let reply = sendWithReplyAndBlock(c, m, timeout, error.raw) else { _ = error.take(otherwise: ""); return nil }
        defer { messageUnref(reply) }
        guard messageType(reply) == 2, let r = BusIter.reading(self, reply) else { return nil }
        return read(r)
    }
}
