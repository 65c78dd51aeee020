#if canImport(Glibc)
import Glibc
#endif
import HUDSettings
import HUDTOML
import HUDCommandLine
import HUDSystem

// `xhud-settings-bench FILE...`: what reading each configuration file costs, median of many
// runs: the file read, the TOML parsed, the settings made of it (parse and checks), and all
// of it as a server does it (`SettingsFile.load`). A benchmark, never a test.

/// Median microseconds of `body`, run for about 0.3 s (at least 5 times).
func measure(_ body: () -> Void) -> Double {
    var times: [Double] = []
    let end = MonotonicTime.seconds() + 0.3
    while times.count < 5 || (MonotonicTime.seconds() < end && times.count < 100_000) {
        let t0 = MonotonicTime.seconds()
        body()
        times.append((MonotonicTime.seconds() - t0) * 1e6)
    }
    times.sort()
    return times[times.count / 2]
}

/// A line on stderr.
func complain(_ line: String) { Console.error(line + "\n") }

let paths = Array(CommandLine.arguments.dropFirst())
guard !paths.isEmpty else {
    complain("usage: xhud-settings-bench FILE...")
    exit(2)
}
for path in paths {
    guard case .text(let text) = FileText.read(path, limit: SettingsFile.maxBytes) else {
        complain("\(path): cannot be read")
        exit(1)
    }
    let file = SettingsFile(path: path, text: text, keys: OptionTable.settingKeys)
    let read = measure { _ = FileText.read(path, limit: SettingsFile.maxBytes) }
    let parse = measure { _ = try? TOML.parse(text) }
    let settings = measure { _ = SettingsFile(path: path, text: text, keys: OptionTable.settingKeys) }
    let load = measure { _ = SettingsFile.load(path: path, keys: OptionTable.settingKeys) }
    func f(_ us: Double) -> String { us < 100 ? String(Double(Int(us * 10)) / 10) : String(Int(us)) }
    print(
        "\(path): \(text.utf8.count) bytes, \(file.top.count + file.sections.values.map(\.count).reduce(0, +)) settings, \(file.warnings.count) warnings"
    )
    print("  read \(f(read)) µs, TOML parse \(f(parse)) µs, settings (parse + checks) \(f(settings)) µs; all of it (load) \(f(load)) µs")
}
