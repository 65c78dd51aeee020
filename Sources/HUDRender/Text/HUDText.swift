import HUDCore

/// A renderer's text: each request drawn by DirectText when it can (the same pixels, without
/// Pango), by Pango otherwise. The choice is the request's own, never the history's: the same
/// label is always drawn the same way, and Pango is loaded only by the first text that needs it.
package final class HUDText: TextMeasurer {
    private let direct = DirectText()
    /// Pango's layouts, for the text DirectText leaves to it (and for tests that look inside).
    package let pango = PangoText()

    package init() {}

    package func measure(_ request: TextRequest) -> Size {
        guard !request.text.isEmpty else { return .zero }
        if let line = direct.line(for: request) { return direct.size(line, request) }
        return pango.measure(request)
    }

    package func draw(_ request: TextRequest, in rect: Rect, cr: OpaquePointer) {
        guard !request.text.isEmpty else { return }
        if let line = direct.line(for: request) { return direct.draw(line, in: rect, cr: cr) }
        pango.draw(request, in: rect, cr: cr)
    }

    /// Whether DirectText draws the request (tests compare it with Pango).
    package func isDirect(_ request: TextRequest) -> Bool { direct.line(for: request) != nil }
}
