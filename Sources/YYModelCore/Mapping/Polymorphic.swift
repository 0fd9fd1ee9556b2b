/// Chooses the concrete type of a value from its JSON object: YYModel's
/// `modelCustomClassForDictionary:`, for a family of types that share a protocol.
///
/// ```swift
/// protocol Shape {}
/// @Model struct Circle: Shape { var radius: Double }
/// @Model struct Square: Shape { var side: Double }
///
/// enum ShapeKind: ModelTypeChooser {
///     typealias Base = any Shape
///     static func modelType(for object: JSONValue) throws -> any Decodable.Type {
///         object["radius"] != nil ? Circle.self : Square.self
///     }
/// }
///
/// @Model struct Drawing { var shapes: [Polymorphic<ShapeKind>] }
/// drawing.shapes[0].value   // any Shape
/// ```
public protocol ModelTypeChooser {
    /// What the chosen types have in common, usually an existential such as `any Shape`.
    associatedtype Base

    /// The concrete type for `object` (the whole JSON value); it must be a `Base`.
    static func modelType(for object: JSONValue) throws -> any Decodable.Type
}

/// A value whose concrete type a ``ModelTypeChooser`` picks from the JSON object.
public struct Polymorphic<Chooser: ModelTypeChooser> {
    /// The decoded value, as the family's base type.
    public var value: Chooser.Base

    /// Wraps a value.
    public init(_ value: Chooser.Base) {
        self.value = value
    }
}

extension Polymorphic: Decodable {
    public init(from decoder: any Decoder) throws {
        let object = try JSONValue(from: decoder)
        let type = try Chooser.modelType(for: object)
        let decoded: any Decodable
        if let model = type as? any _TapeDecodable.Type, let tape = decoder as? TapeDecoder,
            tape.reader.view.tag(at: tape.index) == .objectStart
        {
            decoded = try model.init(_tape: _TapeObject(reader: tape.reader, start: tape.index, codingPath: tape.codingPath))
        } else {
            decoded = try type.init(from: decoder)
        }
        guard let value = decoded as? Chooser.Base else {
            throw DecodingError.typeMismatch(
                Chooser.Base.self,
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "\(Chooser.self) chose \(type), which is not a \(Chooser.Base.self)."))
        }
        self.value = value
    }
}

extension Polymorphic: Encodable {
    /// Encodes the value as its concrete type; a value that is not `Encodable` is an error.
    public func encode(to encoder: any Encoder) throws {
        guard let encodable = value as? any Encodable else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: encoder.codingPath,
                    debugDescription: "\(type(of: value)) is not Encodable."))
        }
        try encodable.encode(to: encoder)
    }
}
