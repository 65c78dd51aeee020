#if canImport(Glibc)
import Glibc
#endif

/// Signals as bytes on a pipe, for a poll loop (SIGCHLD included), each with whether a process
/// sent it (`kill`) or the kernel did (a terminal's Ctrl-C, a child's exit).
package final class SignalPipe {
    package let readFD: Int32
    package init(for signals: [Int32]) {
        var fds: [Int32] = [0, 0]
        _ = makePipe(&fds, nonBlocking: true)
        readFD = fds[0]
        signalWriteFD = fds[1]
        for s in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { sig, info, _ in
                // si_code <= 0: sent by a process (SI_USER, SI_QUEUE, SI_TKILL).
                let fromProcess: UInt8 = (info?.pointee.si_code ?? 1) <= 0 ? 1 : 0
                var b: (UInt8, UInt8) = (UInt8(truncatingIfNeeded: sig), fromProcess)
                _ = write(signalWriteFD, &b, 2)
            }
            action.sa_flags = SA_SIGINFO | SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(s, &action, nil)
        }
    }

    package func drain() -> [(signal: Int32, fromProcess: Bool)] {
        var out: [(Int32, Bool)] = []
        var b = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(readFD, &b, 64)
            if n <= 0 { break }
            for i in stride(from: 0, to: n - 1, by: 2) { out.append((Int32(b[i]), b[i + 1] != 0)) }
        }
        return out
    }
}

nonisolated(unsafe) private var signalWriteFD: Int32 = -1
