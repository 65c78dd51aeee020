import HUDCore

/// AT-SPI roles xhud uses (`AtspiRole`, at-spi2-core's atspi-constants.h).
package enum AccessibleRole: UInt32, Sendable {
    case alert = 2
    case application = 75
    case notification = 101

    /// The role's name as `GetRoleName` gives it (at-spi2-core's role names, untranslated).
    package var name: String {
        switch self {
        case .alert: return "alert"
        case .application: return "application"
        case .notification: return "notification"
        }
    }
}

/// AT-SPI states (`AtspiStateType`): bit numbers in the two 32-bit words of `GetState`.
package enum AccessibleState: Int, CaseIterable, Sendable {
    case active = 1
    case enabled = 8
    case sensitive = 24
    case showing = 25
    case visible = 30
}

/// A set of states as `GetState` sends it: `au`, two words, state n is bit n % 32 of word n / 32.
package struct AccessibleStateSet: Equatable, Sendable {
    package private(set) var words: [UInt32] = [0, 0]
    package init(_ states: [AccessibleState] = []) { for s in states { insert(s) } }
    package mutating func insert(_ s: AccessibleState) { words[s.rawValue / 32] |= 1 << UInt32(s.rawValue % 32) }
    package func contains(_ s: AccessibleState) -> Bool { words[s.rawValue / 32] & (1 << UInt32(s.rawValue % 32)) != 0 }
}

/// What a screen reader is told of one HUD: its name (the label, as its window's `_NET_WM_NAME`),
/// description (the details), role and states. Made on the server's loop from the HUD's
/// configuration; a value, handed to the bus thread.
package struct AccessibleHUD: Equatable, Sendable {
    package var name: String
    package var description: String
    package var role: AccessibleRole
    package var showing: Bool
    /// The progress in percent of a HUD that shows one (an OSD's volume, a bar, a pie, a ring).
    package var level: Int?

    package init(name: String, description: String, role: AccessibleRole, showing: Bool, level: Int? = nil) {
        self.name = name; self.description = description; self.role = role; self.showing = showing; self.level = level
    }

    /// The HUD as its configuration shows it.
    package init(_ c: HUDConfiguration, showing: Bool) {
        name = c.spokenText
        // The details in words, unless they are what the name says already (no label).
        var d = c.markup ? HUDConfiguration.plainText(ofMarkup: c.details) : c.details
        if c.label.isEmpty && !d.isEmpty {
            d = d.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first.map(String.init) ?? ""
        }
        description = String(d.prefix(1024))
        role = Self.role(for: c.mode)
        self.showing = showing
        level = c.mode.showsProgress ? Int((min(1, max(0, c.progress)) * 100).rounded()) : nil
    }

    /// A level change worth saying again after `spoken` was said: a step of 5 (a volume key's)
    /// or more, or an end (muted, full); a bar that creeps up by 1 is not read out each time.
    package func levelWorthSaying(after spoken: Int?) -> Bool {
        guard let level, level != spoken else { return false }
        guard let spoken else { return true }
        return abs(level - spoken) >= 5 || level == 0 || level == 100
    }

    /// An error or a warning asks for attention (ALERT: Orca speaks it at once, interrupting);
    /// everything else informs (NOTIFICATION: spoken politely).
    package static func role(for mode: HUDMode) -> AccessibleRole {
        mode == .error || mode == .warning ? .alert : .notification
    }

    /// SHOWING and VISIBLE while on screen; ENABLED always (nothing in it is disabled).
    package var states: AccessibleStateSet {
        AccessibleStateSet(showing ? [.enabled, .visible, .showing] : [.enabled])
    }

    /// `Announcement`'s politeness: ATSPI_LIVE_ASSERTIVE (2) for an alert, else POLITE (1).
    package var politeness: Int32 { role == .alert ? 2 : 1 }
}
