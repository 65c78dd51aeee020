import HUDCore

/// What the layout tests share: MBProgressHUD's layout in a 400x300 region with fixed text
/// metrics (`FakeMeasurer`: every character 8 px wide, every line 20 px high).
protocol LayoutFixture {}

extension LayoutFixture {
    var region: Size { Size(width: 400, height: 300) }

    func layout(_ c: HUDConfiguration, region: Size? = nil, measurer: FakeMeasurer = FakeMeasurer()) -> HUDLayout {
        HUDLayout.compute(c, region: region ?? self.region, measurer: measurer)
    }

    func config(
        _ mode: HUDMode = .indeterminate, label: String = "", details: String = "",
        button: String = ""
    ) -> HUDConfiguration {
        var c = HUDConfiguration()
        c.maxTextWidth = 10_000  // MBProgressHUD's bound, the region, is what these tests check
        c.mode = mode
        c.label = label
        c.details = details
        c.button = button
        return c
    }

    /// The stacked items top to bottom; a bar with its value beside it counts as one item.
    func items(_ l: HUDLayout) -> [Rect] {
        var indicator = l.indicator
        if let i = l.indicator, let v = l.value, v.minX >= i.maxX {
            indicator = Rect(x: i.minX, y: i.minY, width: v.maxX - i.minX, height: i.height)
        }
        return [indicator, l.label, l.details, l.button].compactMap { $0 }
    }
}
