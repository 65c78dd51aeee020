import HUDCore

/// A hint's value as it came over the bus, as far as the hints xhud reads need it.
package enum HintValue: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case bytes([UInt8])
    case structure([HintValue])
}

/// One `Notify` call of the Desktop Notifications Specification 1.2, as plain values.
package struct Notification: Equatable, Sendable {
    package var appName = ""
    package var replacesID: UInt32 = 0
    package var appIcon = ""
    package var summary = ""
    package var body = ""
    /// Pairs of action key and label, in the order given.
    package var actions: [(key: String, label: String)] = []
    package var hints = Hints()
    /// -1: the server's default; 0: never expires; otherwise milliseconds.
    package var expireTimeout: Int32 = -1

    package init() {}

    package static func == (a: Notification, b: Notification) -> Bool {
        a.appName == b.appName && a.replacesID == b.replacesID && a.appIcon == b.appIcon && a.summary == b.summary
            && a.body == b.body && a.actions.map(\.key) == b.actions.map(\.key) && a.actions.map(\.label) == b.actions.map(\.label)
            && a.hints == b.hints && a.expireTimeout == b.expireTimeout
    }

    /// What the server's queue and history read of a notification.
    package struct About: Equatable, Sendable {
        package var appName: String
        package var summary: String
        package var body: String
        package var urgency: Int
        package var category: String?
        /// An OSD (a `value` hint): updated in place, never queued.
        package var isOSD: Bool
        /// Every action's key and label, in the order given.
        package var actionKeys: [String] = []
        package var actionLabels: [String] = []
        package var isCritical: Bool { urgency >= 2 }
    }

    package var about: About {
        About(
            appName: appName, summary: summary, body: body, urgency: hints.urgency, category: hints.category,
            isOSD: hints.value != nil, actionKeys: actions.map(\.key), actionLabels: actions.map(\.label))
    }

    /// Whether a click on the HUD invokes the `default` action.
    package var hasDefaultAction: Bool { actions.contains { $0.key == "default" } }

    /// The actions shown as the HUD's buttons, in order: every one but `default` (a click on
    /// the body). The first is the HUD's button, the others its extra buttons, as many as fit.
    package var buttonActions: [(key: String, label: String)] { actions.filter { $0.key != "default" } }

    /// The flat `as` of the call (key, label, key, label, ...); a key without its label is
    /// dropped, as is an action with an empty label (nothing to show on a button).
    package static func actions(_ flat: [String]) -> [(key: String, label: String)] {
        stride(from: 0, to: flat.count - 1, by: 2).compactMap { i in
            flat[i].isEmpty ? nil : (flat[i], Limits.text(flat[i + 1], maxBytes: Limits.labelBytes))
        }
    }
}

/// The hints xhud acts on; the others are ignored, as the specification allows.
package struct Hints: Equatable, Sendable {
    /// 0 low, 1 normal, 2 critical.
    package var urgency: Int = 1
    /// `value` (0-100, clamped): the notification is an OSD bar.
    package var value: Int?
    /// `x-canonical-private-synchronous`, `x-dunst-stack-tag` or `synchronous`: notifications with
    /// the same tag are one HUD, updated in place.
    package var tag: String?
    /// `image-path` (or `image_path`): an icon name or a file.
    package var image: String?
    /// `image-data` (or the older `image_data`, `icon_data`).
    package var imageData: NotificationImage?
    package var category: String?

    package init() {}

    package init(_ raw: [String: HintValue]) {
        func text(_ k: String) -> String? { if case .string(let s)? = raw[k], !s.isEmpty { return s } else { return nil } }
        func number(_ k: String) -> Int64? { if case .integer(let n)? = raw[k] { return n } else { return nil } }
        if let u = number("urgency") { urgency = Int(max(0, min(2, u))) }
        if let v = number("value") {
            value = Int(max(0, min(100, v)))
        } else if case .string(let s)? = raw["value"], let v = Int(s) {
            value = max(0, min(100, v))
        }
        tag = text("x-canonical-private-synchronous") ?? text("x-dunst-stack-tag") ?? text("synchronous")
        image = text("image-path") ?? text("image_path")
        for k in ["image-data", "image_data", "icon_data"] {
            if imageData == nil, let v = raw[k] { imageData = NotificationImage(v) }
        }
        category = text("category")
    }
}
