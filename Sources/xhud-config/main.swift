#if canImport(Glibc)
import Glibc
#endif
import HUDFiles
import HUDSettings
import HUDSettingsTOML

// `xhud-config FILE [--theme]`: parses an xhud configuration file (or, with --theme, a theme:
// no sections) with TOMLKit and prints it in the settings' line format on stdout. xhud runs it
// once per version of a file (the result is cached): TOMLKit brings Foundation and ICU, which
// no HUD should load at every start.

let args = Array(CommandLine.arguments.dropFirst())
guard let path = args.first, args.count <= 2, args.count == 1 || args[1] == "--theme" else {
    fputs("usage: xhud-config FILE [--theme]\n", stderr)
    exit(2)
}
let sections = args.count == 1
let file: SettingsFile
switch FileText.read(path, limit: SettingsFile.maxBytes) {
case .missing: file = SettingsFile(path: path, warnings: ["\(path): no such file"])
case .failed(let why): file = SettingsFile(path: path, warnings: ["\(path): \(why); the file is ignored"])
case .text(let text): file = SettingsFile(path: path, text: text, allowsSections: sections)
}
fputs(file.serialized, stdout)
exit(0)
