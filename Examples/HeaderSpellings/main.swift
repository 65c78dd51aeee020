import Foundation
import XHUD

// Each public name of MBProgressHUD's and SVProgressHUD's headers, called as iOS code calls it,
// one type per header version; each checks what the call did through the library's public
// API and prints "ok VERSION" (a failed check prints FAIL and exits 1). XHUDTests run it.
//   example-headers [mb-0.9 | mb-1.x | sv-1.x | sv-2.x]...   (no argument: all four)

let versions: [any HeaderVersion.Type] = [MB09.self, MB1x.self, SV1x.self, SV2x.self]
let chosen = CommandLine.arguments.count > 1 ? Array(CommandLine.arguments.dropFirst()) : versions.map { $0.name }
for name in chosen {
    guard let version = versions.first(where: { $0.name == name }) else { fail("unknown version \(name)") }
    version.run()
    print("ok \(name)")
}
