import Foundation
import XHUD

// Each public name of MBProgressHUD's and SVProgressHUD's headers, called as iOS code calls it,
// one function per header version; each checks what the call did through the library's public
// API and prints "ok VERSION" (a failed check prints FAIL and exits 1). XHUDTests run it.
//   example-headers [mb-0.9 | mb-1.x | sv-1.x | sv-2.x]...   (no argument: all four)

let versions: [String: () -> Void] = ["mb-0.9": mb09, "mb-1.x": mb1x, "sv-1.x": sv1x, "sv-2.x": sv2x]
let chosen = CommandLine.arguments.count > 1 ? Array(CommandLine.arguments.dropFirst()) : ["mb-0.9", "mb-1.x", "sv-1.x", "sv-2.x"]
for name in chosen {
    guard let run = versions[name] else { fail("unknown version \(name)") }
    run()
    print("ok \(name)")
}
