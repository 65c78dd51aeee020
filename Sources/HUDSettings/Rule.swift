#if canImport(Glibc)
import Glibc
#endif

/// `[rule.NAME]`: settings for the notifications of other programs that match, as dunst's rules:
/// `match-app-name`, `match-summary`, `match-body`, `match-category` and `match-urgency` (`low`,
/// `normal`, `critical`) are shell patterns (`*`, `?`, `[...]`), all of which must match; the
/// rule's other keys are any configuration keys (`position`, `hide-after`, `theme`, ...) and
/// `skip`, `urgency`. Matching rules apply after `[notification]`, in the file's order.
package struct Rule: Equatable, Sendable {
    package var name: String
    /// Each pattern by what it matches (`app-name`, `summary`, ...).
    package var patterns: [String: String]
    package var settings: [Setting]

    /// What a rule may match.
    package static let matchable = ["app-name", "summary", "body", "category", "urgency"]

    package init(name: String, patterns: [String: String], settings: [Setting]) {
        self.name = name; self.patterns = patterns; self.settings = settings
    }

    /// Whether every pattern matches `facts` (a notification's, by what they are); a rule with
    /// no pattern matches every notification.
    package func matches(_ facts: [String: String]) -> Bool {
        patterns.allSatisfy { what, pattern in fnmatch(pattern, facts[what] ?? "", 0) == 0 }
    }
}
