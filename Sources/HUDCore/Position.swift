/// Where a bezel sits in its region: the centre, an edge or a corner, as an offset beyond the
/// edges (`Layout` pins a bezel whose offset passes an edge `margin` from it).
public enum HUDPosition: String, CaseIterable, Sendable {
    case center, top, bottom, left, right
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"

    /// The offset that puts a bezel there.
    public var offset: Point {
        let far = Limits.offset.upperBound
        switch self {
        case .center: return Point(x: 0, y: 0)
        case .top: return Point(x: 0, y: -far)
        case .bottom: return Point(x: 0, y: far)
        case .left: return Point(x: -far, y: 0)
        case .right: return Point(x: far, y: 0)
        case .topLeft: return Point(x: -far, y: -far)
        case .topRight: return Point(x: far, y: -far)
        case .bottomLeft: return Point(x: -far, y: far)
        case .bottomRight: return Point(x: far, y: far)
        }
    }
}
