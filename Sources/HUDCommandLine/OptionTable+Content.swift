import HUDCore

extension OptionTable {
    static let content = OptionGroup(
        "Content",
        [
            OptionSpec(
                name: "mode",
                kind: .value { o, v throws(UsageError) in
                    guard let m = HUDMode(named: v) else {
                        throw UsageError(
                            "\(invalid(v, "mode")). Please provide one of \(HUDMode.vocabulary), or MBProgressHUD's name (annular-determinate, determinate-horizontal-bar, custom-view)."
                        )
                    }
                    o.mode = m
                },
                help:
                    "indeterminate (spinner) | determinate (pie) | annular (ring: progress) | bar | success | error | info | warning | custom (--image) | text; MBProgressHUD's names too, also in camelCase",
                completion: .choices(HUDMode.allCases.map(\.rawValue) + HUDMode.aliasNames), setting: .text { c, _ in c.mode.rawValue }
            ).man(
                """
                The indicator: `indeterminate` (a spinner), `determinate` (a pie), `annular` (a ring), `bar`, `success`, `error`, \
                `info`, `warning` (icons), `custom` (the image given with `--image`), or `text` (no indicator); by default \
                `{default}`. Also accepted: `spinner` (indeterminate), `pie` (determinate), `ring` (annular), and MBProgressHUD's \
                names `annular-determinate`, `determinate-horizontal-bar` or `horizontal-bar` (bar) and `custom-view` or `image` \
                (custom), also in camelCase (`annularDeterminate`). A ring shows progress: for a task of unknown length use the \
                spinner.
                """),
            text("label", "The single-line label (ellipsized when too long).", key: .text { c, _ in c.label }) { $0.label = $1 }
                .man(value: "text", "The single-line label, ellipsized when too long."),
            text("details", "The multi-line details label.", key: .text { c, _ in c.details }, hud: sets(\.details, \.details)) {
                $0.details = $1
            }.man(value: "text", "The multi-line details label, wrapped to the bezel."),
            number("progress", "Progress {range} for determinate, annular and bar.", range: Limits.progress) { $0.progress = $1 }.man(
                value: "fraction",
                """
                Progress from {range} for `determinate`, `annular` and `bar`. A bare `--progress` not followed by a number is \
                zenity's flag (see `Zenity compatibility`).
                """),
            text("button", "A button with this title; clicking it cancels (exit 1).", key: .text { c, _ in c.button }) { $0.button = $1 }
                .man(value: "title", "Show a button with this title; clicking it cancels (exit status 1)."),
            text(
                "image",
                "Image for --mode custom: a PNG, SVG, JPEG, GIF, BMP or WebP file, or an icon name from the icon theme (dialog-information).",
                completion: images, key: .text { c, _ in c.image },
                check: { v throws(UsageError) in
                    if v.isEmpty { throw UsageError("--image needs a file (PNG, SVG, JPEG, ...) or an icon name, got ''") }
                }
            ) { $0.image = $1 }.man(
                value: "*file*|*name*",
                """
                The image for `--mode custom` (or above a bar, as an on-screen display's icon): a PNG, SVG, JPEG, GIF, BMP or WebP \
                file (SVG is rendered at the HUD's pixel size, sharp at any scale, through librsvg), or the name of an icon in the \
                freedesktop icon theme, such as `audio-volume-high` or `dialog-information`, found as notify-send finds it (see \
                `IMAGES`). An unreadable or invalid file is a usage error; an icon name no theme has is a warning, and the HUD shows \
                without an image.
                """),
            number(
                "image-size", "Size in pixels of the box the image is fitted into (default {default}).", range: Limits.imageSize,
                key: .number { c, _ in c.imageSize }, hud: sets(\.imageSize, \.imageSize)
            ) { $0.imageSize = $1 }.man(value: "pixels", "The size of the box the image is fitted into, {range} (default {default})."),
            toggle(
                "tint-image", "Tint the image with the content colour.", key: .flag { c, _ in c.tintImage }, hud: sets(\.tintImage, \.tintImage)
            ) { $0.tintImage = $1 }.man("Tint the image with the content colour (as a template image)."),
            text(
                "success-image", "An image or icon name drawn instead of the success icon (SVProgressHUD's setSuccessImage).",
                completion: images, key: .text { c, _ in c.successImage }
            ) { $0.successImage = $1 }.man(value: "*file*|*name*", ""),
            text("error-image", "An image or icon name drawn instead of the error icon.", completion: images, key: .text { c, _ in c.errorImage }) {
                $0.errorImage = $1
            }.man(value: "*file*|*name*", ""),
            text("info-image", "An image or icon name drawn instead of the info icon.", completion: images, key: .text { c, _ in c.infoImage }) {
                $0.infoImage = $1
            }.man(value: "*file*|*name*", ""),
            text(
                "warning-image", "An image or icon name drawn instead of the warning icon.", completion: images,
                key: .text { c, _ in c.warningImage }
            ) { $0.warningImage = $1 }.man(
                value: "*file*|*name*",
                """
                An image or icon name drawn instead of the success, error, info or warning icon, fitted into `--image-size` \
                (SVProgressHUD's `setSuccessImage:`...). An icon name no theme has is a warning, and the drawn icon stays.
                """),
            choice(
                "spinner", SpinnerStyle.self, "ring (SVProgressHUD) | spokes (classic activity indicator)",
                key: .text { c, _ in c.spinner.rawValue }, hud: sets(\.spinner, \.spinner)
            ) { $0.spinner = $1 }.man(
                value: "style", "`ring` (SVProgressHUD's flat ring) or `spokes` (the classic activity indicator); by default `{default}`."),
            number(
                "ring-thickness",
                "Line width of the spinner's ring and the progress ring, {range} (default {default}; SVProgressHUD's ringThickness).",
                range: Limits.ringThickness, key: .number { c, _ in c.ringThickness }, hud: sets(\.ringThickness, \.ringThickness)
            ) { $0.ringThickness = $1 }.man(
                value: "pixels",
                "The line width of the spinner's ring and of the progress ring, {range} (default {default}; SVProgressHUD's `ringThickness`)."),
            number(
                "ring-radius", "Radius of those rings, {range} (default: the indicator's own; SVProgressHUD's ringRadius).",
                range: Limits.ringRadius, key: .number { c, _ in c.ringRadius }, hud: sets(\.ringRadius, \.ringRadius)
            ) { $0.ringRadius = $1 }.man(
                value: "pixels",
                """
                The radius of those rings, {range} (default: the indicator's own, in its 37 pixel box; SVProgressHUD's `ringRadius` \
                and `ringNoTextRadius`).
                """),
            toggle(
                "show-value", "Show the value (45%) beside a bar or inside a ring.", key: .flag { c, _ in c.showValue },
                hud: sets(\.showValue, \.showValue)
            ) { $0.showValue = $1 },
            toggle("alternate", "The bar's alternate state (e.g. muted), drawn in --alternate-color.", hud: sets(\.alternate, \.alternate)) {
                $0.alternate = $1
            }.man("Draw the bar in its alternate state (for example muted), in the `--alternate-color`."),
            text("alternate-color", "Colour of the alternate state (default: a muted red).", key: .text { c, _ in c.alternateColor.description }) {
                $0.alternateColor = $1
            }.man(value: "colour", "The colour of the alternate state (default: a muted red)."),
            toggle("markup", "Interpret label and details as Pango markup (otherwise only zenity's --text is).", key: .flag { c, _ in c.markup }) {
                $0.markup = $1
            }.man(
                """
                Interpret the label and details as Pango markup. Without this flag they are plain text, except zenity's `--text`, \
                which is markup as in zenity unless `--no-markup` is given.
                """),
            toggle(
                "smooth", "Ease progress changes over 0.2 s (default: each value is on screen exactly in the next frame).",
                key: .flag { _, o in o.smooth ?? false }
            ) { $0.smooth = $1 }.man(
                """
                Ease progress changes over 0.2 s. By default each new value (from `--progress`, standard input, an `--id` update or \
                the library) is on screen exactly in the next frame, as MBProgressHUD and SVProgressHUD set it.
                """),
        ])
}
