import Foundation
import XHUD

// A Foundation Progress drives a bar: the display link polls it once a frame, so the work
// never touches the HUD. The HUD shows while the async work runs and hides when it ends.
let progress = Progress(totalUnitCount: 40)

let copied = try await HUD.show(
    over: .monitor("pointer"),
    configure: { hud in
        hud.mode = .bar
        hud.label = "Copying"
        hud.progressObject = progress
        hud.details = "40 files"
    },
    while: { () async throws -> Int64 in
        for _ in 0..<40 {
            try await Task.sleep(nanoseconds: 50_000_000)
            progress.completedUnitCount += 1
        }
        return progress.completedUnitCount
    })
print("copied \(copied) of \(progress.totalUnitCount)")
