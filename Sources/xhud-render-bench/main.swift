#if canImport(Glibc)
import Glibc
#endif
import CCairo
import HUDCore
import HUDRender
import HUDSystem

// Prints the cost of rendering one HUD frame per mode at scale 1 and 2 (min and median of
// repeated frames into a reused image surface, as the X11 backend draws them).
let frames = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 300
let renderer = HUDRenderer()
let region = Size(width: 400, height: 300)

func config(_ mode: HUDMode) -> HUDConfiguration {
    var c = HUDConfiguration()
    c.mode = mode
    c.label = mode == .text ? "Copied to clipboard" : "Loading"
    c.progress = 0.42
    return c
}

print("| mode | scale | min ms | median ms |")
print("|---|---|---|---|")
for scale in [1.0, 2.0] {
    for mode in HUDMode.allCases where mode != .custom {
        let c = config(mode)
        let layout = renderer.layout(c, region: region)
        var f = HUDFrame(configuration: c, layout: layout)
        f.scale = scale
        let extent = f.bezelExtent.integral
        f.origin = Point(x: extent.x, y: extent.y)
        f.drawsMask = false
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(extent.width * scale), Int32(extent.height * scale))!
        var times: [Double] = []
        for i in 0..<frames {
            f.time = Double(i) / 60
            let t0 = MonotonicTime.seconds()
            renderer.render(f, replacing: surface)
            times.append((MonotonicTime.seconds() - t0) * 1000)
        }
        cairo_surface_destroy(surface)
        times.sort()
        func fmt(_ v: Double) -> String { String(Double(Int(v * 1000)) / 1000) }
        print("| \(mode.rawValue) | \(Int(scale)) | \(fmt(times[0])) | \(fmt(times[times.count / 2])) |")
    }
}
