#if canImport(Glibc)
import Glibc
#endif
import HUDEngine
import HUDRender
import HUDSettings
import HUDSystem

/// Why an image cannot be shown, in a sentence naming it.
struct ImageProblem: Error, CustomStringConvertible {
    let description: String
    /// No theme has the icon named (not an error for `--image`: its HUD shows its text alone).
    var missingIcon = false
    init(_ description: String, missingIcon: Bool = false) { self.description = description; self.missingIcon = missingIcon }
}

/// Makes ready, off the loop, every image a request shows, while the loop goes on drawing every
/// other HUD: a bitmap is read and decoded on the decoder's thread (`ImageDecoder`); an SVG, a
/// large bitmap and an icon name not looked up yet are drawn at the size they are shown at by a
/// child process with a time and a memory budget (`xhud-host --prepare-image`), whose small PNG
/// is then decoded as a bitmap is. A child that runs out of its budget is ended, and its request
/// gets a clear error. Drawings are kept by file version and size: the OSD's next key press
/// shows its icon without a child. Owned by the loop's thread.
package final class ImagePreparer {
    /// Seconds a child may take (wall clock; its CPU is limited to the same, rounded up).
    static let seconds = 1.0
    /// Bytes of heap a child may use.
    static let memory = 128 << 20

    private let loop: any HUDEventLoop
    private let decoder: ImageDecoder
    private var prepared: [String: String] = [:]
    private var preparedOrder: [String] = []
    private var running: [String: [(Result<String, ImageProblem>) -> Void]] = [:]
    private var decoding: [ImageDecoder.Job: [(ImageDecoder.Output) -> Void]] = [:]

    init(loop: any HUDEventLoop, decoder: ImageDecoder = .shared) {
        self.loop = loop
        self.decoder = decoder
    }

    /// Calls `done` with each path's image to show (or why it cannot be shown), at once when
    /// every one was made ready before. `side` is the box in device pixels. A path without a
    /// leading `/` is an icon name the loop has not looked up: the child looks it up (`icons`:
    /// the size and theme it is looked up for) and the answer is kept for the next request.
    func prepare(
        _ paths: [String], side: Int, icons: (size: Int, theme: String?),
        _ done: @escaping ([String: Result<String, ImageProblem>]) -> Void
    ) {
        var results: [String: Result<String, ImageProblem>] = [:]
        var waiting = Set(paths)
        for path in Set(paths) {
            prepareOne(path, side: side, icons: icons) { result in
                results[path] = result
                waiting.remove(path)
                if waiting.isEmpty { done(results) }
            }
        }
        if paths.isEmpty { done(results) }
    }

    private func prepareOne(
        _ path: String, side: Int, icons: (size: Int, theme: String?),
        _ done: @escaping (Result<String, ImageProblem>) -> Void
    ) {
        if !path.hasPrefix("/") {
            return draw(path, key: "icon \(path) \(icons.size) \(icons.theme ?? "")\n\(side)", side: side, icon: icons, done)
        }
        decode(path, drawn: false) { [unowned self] output in
            switch output {
            case .bitmap: done(.success(path))
            case .failed(let why): done(.failure(ImageProblem(why)))
            case .needsDrawing:
                let key = path + "\n" + FileText.stamp(path).map(String.init).joined(separator: ",") + "\n\(side)"
                draw(path, key: key, side: side, icon: nil, done)
            }
        }
    }

    /// Decodes `path` on the decoder's thread, then calls `then` on the loop (at once when it
    /// was decoded before).
    private func decode(_ path: String, drawn: Bool, _ then: @escaping (ImageDecoder.Output) -> Void) {
        let job = ImageDecoder.Job(path: path, stamp: FileText.stamp(path), drawn: drawn)
        if let known = decoder.output(job) { return then(known) }
        let first = decoding[job] == nil
        decoding[job, default: []].append(then)
        guard first else { return }
        let inbox = LoopInbox(loop, owner: self)
        decoder.decode([job]) { outputs in
            let output = outputs[job]!
            inbox.post { preparer in for w in preparer.decoding.removeValue(forKey: job) ?? [] { w(output) } }
        }
    }

    /// Draws an image (or looks an icon up and draws it) in a child, then decodes its PNG.
    private func draw(
        _ path: String, key: String, side: Int, icon: (size: Int, theme: String?)?,
        _ done: @escaping (Result<String, ImageProblem>) -> Void
    ) {
        let decodeDrawing: (Result<String, ImageProblem>) -> Void = { [unowned self] result in
            guard case .success(let png) = result else { return done(result) }
            decode(png, drawn: true) { output in
                switch output {
                case .bitmap, .needsDrawing: done(.success(png))
                case .failed(let why): done(.failure(ImageProblem(why)))
                }
            }
        }
        if let png = prepared[key], access(png, R_OK) == 0 { return decodeDrawing(.success(png)) }
        let first = running[key] == nil
        running[key, default: []].append(decodeDrawing)
        if first { start(path, key: key, side: side, icon: icon) }
    }

    private func finish(_ key: String, _ result: Result<String, ImageProblem>) {
        if case .success(let png) = result {
            prepared[key] = png
            preparedOrder.append(key)
            if preparedOrder.count > 64 { prepared[preparedOrder.removeFirst()] = nil }
        }
        for w in running.removeValue(forKey: key) ?? [] { w(result) }
    }

    private func start(_ path: String, key: String, side: Int, icon: (size: Int, theme: String?)?) {
        guard let dir = PrivateCache.directory("images", preferringRuntime: true),
            let host = Environment.companion("xhud-host")
        else {
            return finish(key, .failure(ImageProblem("cannot use image '\(path)': no private directory to draw it in")))
        }
        // A symbolic icon stays one (it takes the content colour).
        let out = dir + "/" + hash(key) + (path.contains("-symbolic") ? "-symbolic" : "") + ".png"
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return finish(key, .failure(ImageProblem("cannot use image '\(path)': no pipe"))) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        let args =
            ["xhud-host", "--prepare-image", path, out, String(side)]
            + (icon.map { ["--icon", String($0.size), $0.theme ?? ""] } ?? [])
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, host, &actions, nil, &argv, environ)
        close(fds[1])
        guard spawned == 0 else { close(fds[0]); return finish(key, .failure(ImageProblem("cannot use image '\(path)': cannot start xhud-host"))) }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        var said: [UInt8] = []
        var ended = false
        func end(_ timedOut: Bool) {
            guard !ended else { return }
            ended = true
            loop.removeReader(fd: fds[0])
            close(fds[0])
            if timedOut { kill(pid, SIGKILL) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let lines = String(decoding: said.prefix(4096), as: UTF8.self).split(separator: "\n").map(String.init)
            let message = lines.first { !$0.hasPrefix("icon ") && !$0.hasPrefix("png ") } ?? ""
            let png = lines.first { $0.hasPrefix("png ") }.map { String($0.dropFirst(4)) } ?? out
            if let icon, !timedOut {
                // The child's answer to the lookup, kept: the next request looks it up on the loop.
                let found = lines.first { $0.hasPrefix("icon ") }.map { String($0.dropFirst(5)) }
                if found != nil || status == 4 << 8 {
                    IconTheme.remember(path, size: icon.size, scale: 1, theme: icon.theme, found: found)
                }
            }
            if timedOut {
                finish(key, .failure(ImageProblem("cannot use image '\(path)': drawing it took more than \(Self.seconds) s")))
            } else if status == 4 << 8 {
                finish(key, .failure(ImageProblem("no icon '\(path)'", missingIcon: true)))
            } else if status == 0, access(png, R_OK) == 0 {
                finish(key, .success(png))
            } else {
                let why = message.isEmpty ? "drawing it ran out of its time or memory" : message
                finish(key, .failure(ImageProblem(why.hasPrefix("cannot use image") ? why : "cannot use image '\(path)': \(why)")))
            }
        }
        let timer = loop.addTimer(after: Self.seconds) { end(true) }
        loop.addReader(fd: fds[0]) { [loop] in
            var buf = [UInt8](repeating: 0, count: 512)
            let n = read(fds[0], &buf, buf.count)
            if n > 0 { if said.count < 4096 { said += buf[0..<n] }; return }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { return }
            loop.cancelTimer(timer)
            end(false)
        }
    }

    /// The child's side: limits, then the drawing. Exits the process.
    package static func runChild(_ arguments: [String]) -> Never {
        guard arguments.count == 3 || arguments.count == 6, let side = Int(arguments[2]) else { exit(2) }
        var cpu = rlimit(rlim_cur: rlim_t(seconds.rounded(.up)), rlim_max: rlim_t(seconds.rounded(.up)) + 1)
        setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &cpu)
        var data = rlimit(rlim_cur: rlim_t(memory), rlim_max: rlim_t(memory))
        setrlimit(__rlimit_resource_t(RLIMIT_DATA.rawValue), &data)
        var source = arguments[0], out = arguments[1]
        if arguments.count == 6 {
            // An icon name: looked up here (reading the themes' indexes and directories), its
            // file reported for the server to keep, exit 4 when no theme has it.
            let theme = arguments[5].isEmpty ? nil : arguments[5]
            guard let found = IconTheme.lookup(source, size: Int(arguments[4]) ?? 74, scale: 1, theme: theme) else { exit(4) }
            Console.output("icon \(found)\n")
            source = found
            if found.contains("-symbolic") { out = String(out.dropLast(4)) + "-symbolic.png" }
            Console.output("png \(out)\n")
        }
        Console.flush()
        let tmp = out + ".\(getpid()).tmp"
        if let why = ImageRaster.write(source, side: side, to: tmp) {
            unlink(tmp)
            Console.output(why + "\n")
            exit(1)
        }
        exit(rename(tmp, out) == 0 ? 0 : 1)
    }

    private func hash(_ s: String) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return String(h, radix: 16)
    }
}
