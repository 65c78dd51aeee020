import HUDCore
import HUDEngine
import HUDService
import HUDTesting

/// The display the server's tests run it on: HUDs on recording backends, ticked by a manual loop.
final class FakeDisplay: HUDDisplay {
    let manualLoop = ManualLoop()
    var loop: any HUDEventLoop { manualLoop }
    var dpi: Double? { nil }
    /// Every HUD made, first to last (kept after the server lets go, to be looked at).
    private(set) var made: [HUDController] = []
    func makeHUD(configuration: HUDConfiguration, parent: ParentSpec, scale: Double?) throws -> HUDController {
        let backend = RecordingBackend(loop: manualLoop, parent: parent)
        let hud = try HUDController(backend: backend, configuration: configuration, region: backend.screenRect, scale: scale ?? 1)
        made.append(hud)
        return hud
    }
    func check(_ parent: ParentSpec) throws {}
    func rootString(_ name: String) -> String? { nil }
    func run() -> Int32 { 0 }
}
