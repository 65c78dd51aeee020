#if canImport(Glibc)
import Glibc
#endif
import HUDCommandLine
import HUDCore
import HUDRender
import HUDService
import HUDSocket
import CCairo
import HUDSystem

/// What xhud-host does with an invocation it parsed itself: `xhud server`, or the renderer's
/// picture of a HUD (`--render-png`). Every HUD is a server's (`PrivateServer` where no
/// display-wide one can run).
struct Runner {
    let invocation: ConfiguredInvocation
    var options: HUDOptions { invocation.options }

    /// Whether these arguments are the host's own business (else they are a HUD's).
    static func handles(_ arguments: [String]) -> Bool {
        let own = arguments.prefix { $0 != "--" }
        return own.first == Verb.server.rawValue
            || own.contains { $0 == "--print-config" || $0 == "--render-png" || $0.hasPrefix("--render-png=") }
    }

    func run() -> Int32 {
        for w in invocation.warnings { Console.error("xhud: \(w.escapingControlCharacters)\n") }
        if options.verb == .server {
            guard let paths = ServerPaths.current() else {
                return fail("cannot open display '': is an X server running and DISPLAY set?", Status.noDisplay)
            }
            do { try paths.preparePrivateDirectory() } catch { return fail("\(error)", Status.usage) }
            return X11Server.runForeground(paths: paths, notifications: options.notifications == true, replace: options.replace)
        }
        let config: HUDConfiguration
        do { config = try options.hudConfiguration() } catch { return fail("\(error)", Status.usage) }
        return renderPNG(config, to: options.renderPng ?? "")
    }
}

extension Runner {
    /// The renderer's own picture of the HUD (what the screen must show without a compositor):
    /// the region of --geometry at --scale, the frame at time 0, no shadow, premultiplied ARGB.
    func renderPNG(_ config: HUDConfiguration, to path: String) -> Int32 {
        guard let g = options.geometry.flatMap(parseGeometry) else { return fail("--render-png needs --geometry", Status.usage) }
        let scale = options.scale ?? 1
        var c = config
        c.shadow = false
        let renderer = HUDRenderer()
        let region = Size(width: Double(g.width) / scale, height: Double(g.height) / scale)
        let layout = HUDLayout.compute(c, region: region, measurer: renderer.text).snapped(toScale: scale)
        var f = HUDFrame(configuration: c, layout: layout)
        f.scale = scale
        f.progress = c.progress
        f.drawsMask = c.effectiveMask.paintsBackground
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(g.width), Int32(g.height))!
        renderer.render(f, replacing: s)
        let status = cairo_surface_write_to_png(s, path)
        cairo_surface_destroy(s)
        return status == CAIRO_STATUS_SUCCESS ? Status.done : fail("cannot write \(path)", Status.usage)
    }
}
