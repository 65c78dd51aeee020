/// SVProgressHUD's `displayDurationForString`: long enough to read, bounded both ways.
package func displayDuration(for text: String, minimum: Double = 5, maximum: Double = .infinity) -> Double {
    min(max(Double(text.count) * 0.06 + 0.5, minimum), maximum)
}
