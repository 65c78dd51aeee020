#if canImport(Glibc)
import Glibc
#endif
import CCairo
import CWayland

/// One `wl_buffer` in memory shared with the compositor (a memfd), with a Cairo
/// image surface over the same pixels: ARGB32 premultiplied is `WL_SHM_FORMAT_ARGB8888`.
final class ShmBuffer {
    let width: Int, height: Int
    let buffer: OpaquePointer
    let surface: OpaquePointer
    private let memory: UnsafeMutableRawPointer
    private let size: Int
    private unowned let connection: WaylandConnection

    init?(connection: WaylandConnection, width: Int, height: Int) {
        let stride = width * 4
        size = stride * height
        guard size > 0, let shm = connection.shm else { return nil }
        let fd = c_memfd_create("xhud-buffer", 1 /* MFD_CLOEXEC */)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard ftruncate(fd, off_t(size)) == 0, let m = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
            m != MAP_FAILED
        else { return nil }
        guard
            let pool = connection.request(
                shm, 0, [wl_argument(n: 0), wl_argument(h: fd), wl_argument(i: Int32(size))],
                creating: xhud_wl_shm_pool_interface()),
            let b = connection.request(
                pool, 0,
                [
                    wl_argument(n: 0), wl_argument(i: 0), wl_argument(i: Int32(width)),
                    wl_argument(i: Int32(height)), wl_argument(i: Int32(stride)), wl_argument(u: 0),
                ],
                creating: xhud_wl_buffer_interface())
        else {
            munmap(m, size)
            return nil
        }
        connection.destroy(pool, opcode: 1)  // the buffer keeps the memory
        self.connection = connection
        self.width = width
        self.height = height
        memory = m
        buffer = b
        surface = cairo_image_surface_create_for_data(
            m.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
            Int32(width), Int32(height), Int32(stride))
    }

    deinit {
        cairo_surface_destroy(surface)
        connection.destroy(buffer, opcode: 0)
        munmap(memory, size)
    }
}

/// glibc's memfd_create, which Swift's Glibc module declares only for _GNU_SOURCE.
@_silgen_name("memfd_create")
private func c_memfd_create(_ name: UnsafePointer<CChar>, _ flags: UInt32) -> Int32
