/// YYModel's `yy_modelCopy`, `yy_modelIsEqual:`, `yy_modelHash` and `yy_modelDescription`, for
/// every `@Model` type. They work on the mapped properties (what encoding writes), so `@Ignore`d
/// properties take no part. Structs get `==` and hashing from the language too; these give classes
/// the same, and give both a deep copy and a readable description.
extension ModelCodable {
    /// The mapped properties as a JSON value (the encoder's view of the model).
    public var modelJSONValue: JSONValue {
        get throws { try ModelEncoder().encodeToValue(self) }
    }

    /// A deep copy made through the mapping (encode, then decode): nested models and class
    /// instances are new objects.
    public func modelCopy() throws -> Self {
        try ModelDecoder().decode(Self.self, from: ModelEncoder().encodeToBytes(self))
    }

    /// Whether `other` has equal mapped properties. Models that cannot be encoded are unequal.
    public func modelIsEqual(_ other: Self) -> Bool {
        guard let mine = try? modelJSONValue, let theirs = try? other.modelJSONValue else { return false }
        return mine == theirs
    }

    /// Feeds the mapped properties to `hasher`: equal models (``modelIsEqual(_:)``) hash equally.
    public func modelHash(into hasher: inout Hasher) {
        hasher.combine(try? modelJSONValue)
    }

    /// The type name and the mapped properties as indented JSON with sorted keys, nested models
    /// included, e.g. `Book {"id": 1, …}` over several lines.
    public var modelDescription: String {
        let body = (try? ModelEncoder.describing.encodeToString(self)) ?? "<not encodable>"
        return "\(Self.self) \(body)"
    }
}

extension ModelEncoder {
    /// Pretty, sorted, and tolerant of infinities: for descriptions.
    static var describing: ModelEncoder {
        var encoder = ModelEncoder()
        encoder.pretty = true
        encoder.sortedKeys = true
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }
}
