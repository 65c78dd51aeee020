extension HUDServer {
    /// Runs `work` once the HUDs that show have drawn their first frames (at most about a second
    /// later): what is not on a first frame's way (the accessibility bus, XSETTINGS' round
    /// trips) waits for it.
    func afterFirstFrames(tries: Int = 0, _ work: @escaping () -> Void) {
        let drawing = huds.keys.contains { huds[$0].map { $0.hud.isVisible && $0.hud.framesDrawn == 0 } ?? false }
        if drawing && tries < 18 {
            _ = loop.addTimer(after: 0.05) { [weak self] in self?.afterFirstFrames(tries: tries + 1, work) }
            return
        }
        work()
    }
}
