/// Plain geometry in logical pixels (scale 1 = 96 dpi), as MBProgressHUD's points.
public struct Point: Equatable, Sendable {
    public var x: Double, y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)
}

public struct Size: Equatable, Sendable {
    public var width: Double, height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static let zero = Size(width: 0, height: 0)
}

public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public init(origin: Point, size: Size) { self.init(x: origin.x, y: origin.y, width: size.width, height: size.height) }
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var size: Size { Size(width: width, height: height) }
    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }
    public func contains(_ p: Point) -> Bool { p.x >= x && p.x < maxX && p.y >= y && p.y < maxY }
    public func contains(_ r: Rect) -> Bool { r.x >= x && r.y >= y && r.maxX <= maxX && r.maxY <= maxY }
    public func union(_ r: Rect) -> Rect {
        if isEmpty { return r }
        if r.isEmpty { return self }
        let nx = min(x, r.x), ny = min(y, r.y)
        return Rect(x: nx, y: ny, width: max(maxX, r.maxX) - nx, height: max(maxY, r.maxY) - ny)
    }
    /// The common part; empty (zero size) when they do not meet.
    public func intersection(_ r: Rect) -> Rect {
        let nx = max(x, r.x), ny = max(y, r.y)
        let w = min(maxX, r.maxX) - nx, h = min(maxY, r.maxY) - ny
        return w > 0 && h > 0 ? Rect(x: nx, y: ny, width: w, height: h) : Rect(x: nx, y: ny, width: 0, height: 0)
    }
    /// Scales the rectangle about its centre (zoom animations).
    public func scaledAboutCentre(_ s: Double) -> Rect {
        Rect(x: midX - width * s / 2, y: midY - height * s / 2, width: width * s, height: height * s)
    }
    /// The smallest integer rectangle that contains this one.
    public var integral: Rect {
        let nx = x.rounded(.down), ny = y.rounded(.down)
        return Rect(x: nx, y: ny, width: (maxX).rounded(.up) - nx, height: (maxY).rounded(.up) - ny)
    }
    public var description: String { "(\(x), \(y), \(width)x\(height))" }
}

/// `WxH+X+Y` in screen pixels (X and Y may be negative; `-0` is not supported, as it means "from
/// the right" in X). nil unless every part is a whole number within X11's 16-bit range.
public func parseGeometry(_ s: String) -> Rect? {
    var chars = Substring(s)
    func number() -> Int? {
        var digits = ""
        if let f = chars.first, f == "+" || f == "-" { digits.append(f); chars = chars.dropFirst() }
        while let c = chars.first, c.isASCII, c.isNumber, digits.count < 12 { digits.append(c); chars = chars.dropFirst() }
        return Int(digits)
    }
    guard let w = number(), chars.first == "x" || chars.first == "X" else { return nil }
    chars = chars.dropFirst()
    guard let h = number(), Limits.extent.contains(w), Limits.extent.contains(h) else { return nil }
    var x = 0, y = 0
    if !chars.isEmpty {
        guard let nx = number(), let ny = number(), chars.isEmpty,
            Limits.coordinate.contains(nx), Limits.coordinate.contains(ny)
        else { return nil }
        x = nx; y = ny
    }
    return Rect(x: Double(x), y: Double(y), width: Double(w), height: Double(h))
}
