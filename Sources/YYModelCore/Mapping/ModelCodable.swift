/// The conformance `@Model` (in module YYModel) adds: a `Codable` type whose mapping was generated.
///
/// The hooks have no-op defaults; the macro calls `modelWillDecode` and `modelDidEncode` only for
/// types that declare them (they cost a trip through ``JSONValue``).
public protocol ModelCodable: Codable, _TapeDecodable, _DirectEncodable {
    /// Replaces or (by throwing) rejects the JSON object before it is decoded.
    static func modelWillDecode(_ object: JSONValue) throws -> JSONValue
    /// Edits or (by throwing) rejects the encoded object.
    func modelDidEncode(_ object: inout JSONValue) throws
}

extension ModelCodable {
    public static func modelWillDecode(_ object: JSONValue) throws -> JSONValue { object }
    public func modelDidEncode(_ object: inout JSONValue) throws {}
    /// Checks or finishes a decoded model; throwing rejects it. A no-op unless the type declares one.
    public func modelDidDecode() throws {}
}
