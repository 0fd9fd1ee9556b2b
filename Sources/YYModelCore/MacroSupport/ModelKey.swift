/// A coding key made from any string: the keys `@Model` types read and write.
@_documentation(visibility: internal)
public struct _ModelKey: CodingKey, Hashable, Sendable, ExpressibleByStringLiteral {
    public let stringValue: String
    public var intValue: Int? { nil }

    /// Creates a key.
    public init(_ name: String) { stringValue = name }
    public init(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
    public init(stringLiteral value: String) { stringValue = value }
}
