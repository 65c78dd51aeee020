import HUDCore

extension OptionTable {
    static let parentRegion = OptionGroup(
        "Parent region",
        manual:
            "The HUD is centred in its parent region: by default the monitor under the pointer. Give at most one of `--window`, `--monitor` and `--geometry`.",
        [
            text("window", "Parent window: ID | active | pointer | root. The HUD follows it and ends with it.") { $0.window = $1 }.man(
                value: "window",
                """
                A window: an X window *id* (decimal or `0x`...), `active` (the focused window), `pointer` (the window under the \
                pointer) or `root`. The HUD follows the window when it moves, and ends (exit status 0) when the window goes.
                """),
            text(
                "monitor", "Parent monitor: pointer | focused | primary | NAME | INDEX (default: {default}).",
                key: .text { _, o in o.monitor ?? "pointer" }
            ) { $0.monitor = $1 }.man(
                value: "monitor",
                "A monitor: `pointer`, `focused`, `primary`, an XRandR output *name* such as `HDMI-1`, or an *index*; by default `{default}`. On Wayland an output's name or index; `pointer` and `focused` let the compositor put the HUD on the output the user is on, and the HUD moves to another output when its own is unplugged."
            ),
            text(
                "geometry", "Parent region WxH+X+Y in screen pixels.",
                check: { g throws(UsageError) in
                    guard parseGeometry(g) == nil else { return }
                    throw UsageError("--geometry must be WxH+X+Y in whole pixels (sizes 1 to 32767, positions -32768 to 32767), got '\(g)'")
                }
            ) { $0.geometry = $1 }.man(value: "*width*`x`*height*`+`*x*`+`*y*", "A rectangle in screen pixels."),
            number("scale", "Scale factor, {range} (default: Xft.dpi / 96).", range: Limits.scale, key: .number { _, o in o.scale }) {
                $0.scale = $1
            }.man(
                value: "factor",
                "The scale factor, from {range} (default: the `Xft.dpi` resource divided by 96; on Wayland, the output's scale, a fraction such as 1.5 where the compositor offers wp_fractional_scale_v1)."
            ),
            choice(
                "backend", DisplayBackend.self,
                "x11 | wayland (default: Wayland where WAYLAND_DISPLAY is set and the compositor has layer-shell, else X11)."
            ) { $0.backend = $1 }.man(
                value: "`x11`|`wayland`",
                """
                The display to draw on. By default Wayland where `WAYLAND_DISPLAY` is set and the compositor offers layer-shell \
                (sway, Hyprland, river, KDE), X11 otherwise (also through XWayland). On Wayland a monitor is an output's *name* or \
                *index*, and `--window` and `--attach` are refused (exit status 2).
                """),
        ])
}
