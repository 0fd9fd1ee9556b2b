/// A rectangle in unit coordinates of an image (0...1 on both axes, top-left origin).
public struct UnitRect: Sendable, Equatable {
    /// Left edge, 0...1.
    public var x: Double
    /// Top edge, 0...1.
    public var y: Double
    /// Width, 0...1.
    public var width: Double
    /// Height, 0...1.
    public var height: Double

    /// A unit rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
