/// Why ``JSONWriter`` cannot write a value.
public enum JSONWriterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Infinity or NaN, which JSON cannot represent.
    case nonFiniteNumber(Double)

    /// A plain-language account of the error.
    public var description: String {
        switch self {
        case .nonFiniteNumber(let number): "\(number) has no JSON form"
        }
    }
}
