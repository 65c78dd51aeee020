#if canImport(Glibc)
import HUDSystem
import Glibc
#endif

/// Reads configuration files and themes: the file read (bounded, never blocking on a FIFO) and
/// parsed in this process with `HUDTOML`. A parse costs microseconds (the shipped example:
/// 11 µs, 18 µs with its checks, release build; `xhud-settings-bench`), less than reading back a
/// cached copy of its result took, so nothing is cached between processes: a server keeps what
/// it read until the file's stamp changes (`SettingsCache`).
package enum SettingsReader {
    package static func read(path: String, keys: SettingKeys, allowsSections: Bool, theme: String?) -> SettingsFile? {
        switch FileText.read(path, limit: SettingsFile.maxBytes) {
        case .missing: return nil
        case .failed(let why): return SettingsFile(path: path, warnings: ["\(path): \(why); the file is ignored"])
        case .text(let text):
            if let delay = testDelay { usleep(UInt32(delay * 1e6)) }
            var f = SettingsFile(path: path, text: text, keys: keys, allowsSections: allowsSections)
            f.setTheme(theme)
            return f
        }
    }

    /// `XHUD_TEST_SLOW_SETTINGS=SECONDS`: each file found takes that long to read (at most
    /// 10 s), as from a slow disk: the tests check that a server reads off its loop.
    static var testDelay: Double? {
        guard let s = Environment.value("XHUD_TEST_SLOW_SETTINGS"), let d = Double(s), d > 0 else { return nil }
        return min(d, 10)
    }
}

extension SettingsFile {
    /// Names the theme in every setting's source (`theme sv-dark (…/sv-dark.toml:3)`).
    mutating func setTheme(_ name: String?) {
        guard let name else { return }
        top = top.map { Setting(key: $0.key, value: $0.value, source: SettingSource(file: $0.source.file, line: $0.source.line, theme: name)) }
    }
}
