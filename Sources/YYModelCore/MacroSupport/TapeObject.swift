import Foundation

/// A model type that ``ModelDecoder`` can build straight from its tape, without Codable's
/// containers. `@Model` implements it; other `ModelCodable` types go through `init(from:)`.
///
/// Not meant to be implemented by hand: the names start with `_` because generated code calls them.
@_documentation(visibility: internal)
public protocol _TapeDecodable: Decodable {
    init(_tape object: _TapeObject) throws
}

/// One JSON object in a ``ModelDecoder``'s tape, as `@Model`'s generated fast initializer reads it.
///
/// Members are found as ``TapeMemberLookup`` describes: in objects of more than 8 members a
/// repeated key resolves to the first occurrence after the previous match; in smaller ones to its
/// last occurrence.
@_documentation(visibility: internal)
public struct _TapeObject {
    @usableFromInline let reader: TapeReader
    @usableFromInline let codingPath: [any CodingKey]
    private var members: TapeMemberLookup

    @usableFromInline
    init(reader: TapeReader, start: Int, codingPath: [any CodingKey]) {
        self.reader = reader
        self.codingPath = codingPath
        members = TapeMemberLookup(view: reader.view, start: start)
    }

    /// `reader.view`, read from here so that lookups touch no reference-counted storage.
    private var view: TapeView { members.view }

    /// A `Decoder` over the same object, for the paths that need Codable (hooks, other types).
    public var decoder: any Decoder {
        TapeDecoder(reader: reader, index: members.start, codingPath: codingPath)
    }

    // MARK: Lookup

    private mutating func valueIndex(of key: StaticString) -> Int? {
        members.valueIndex(of: UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
    }

    /// The value at the first of `paths` present and not null.
    private mutating func valueIndex(paths: [[String]]) -> (index: Int, path: [any CodingKey])? {
        for path in paths {
            var object = self
            var codingPath = codingPath
            var found: Int?
            for (depth, component) in path.enumerated() {
                let index = object.members.valueIndex(of: component)
                codingPath.append(_ModelKey(component))
                guard let index, !reader.isNull(at: index) else { found = nil; break }
                if depth == path.count - 1 {
                    found = index
                } else {
                    guard view.tag(at: index) == .objectStart else { found = nil; break }
                    object = _TapeObject(reader: reader, start: index, codingPath: codingPath)
                }
            }
            if let found {
                if path.count == 1 { members = object.members }  // the next lookup starts after this key
                return (found, codingPath)
            }
        }
        return nil
    }

    // MARK: Reading

    private func reader(for coercion: ModelDecoder.Coercion?, dates: ModelDecoder.DateDecodingStrategy? = nil) -> TapeReader {
        if dates == nil, coercion == nil || coercion == reader.options.coercion { return reader }
        return reader.overriding(coercion: coercion, dates: dates)
    }

    /// Whether values are read leniently under `coercion` (the field's) or else the decoder's.
    @inline(__always)
    private func isLenient(_ coercion: ModelDecoder.Coercion?) -> Bool {
        coercion.map { $0 == .lenient } ?? reader.lenient
    }

    /// The error for a required member `name` that is absent or null.
    ///
    /// (The `require` methods read first and check after: calling a method of `self` with an
    /// argument that mutates `self` would copy the whole object for every member.)
    @usableFromInline
    func missing(_ name: String) -> DecodingError {
        DecodingError.keyNotFound(_ModelKey(name), .init(codingPath: codingPath, debugDescription: "No value for \(name)."))
    }

    /// Reads the value at `index` (of the member `key`) with `read`; `nil` when it is null.
    ///
    /// Scalar reads get the object's coding path, and the key is added only if they fail: building
    /// `codingPath + [key]` for every member would allocate for every field of every model.
    private func read<T>(
        at index: Int, _ key: StaticString, _ coercion: ModelDecoder.Coercion?,
        _ read: (TapeReader, Int, [any CodingKey]) throws -> T
    ) throws -> T? {
        guard !reader.isNull(at: index) else { return nil }
        do {
            return try read(reader(for: coercion), index, codingPath)
        } catch let error as DecodingError {
            throw error.addingKey(_ModelKey(key.description), below: codingPath)
        }
    }

    /// Reads a nested value with this object's coding path: the key joins the path only if an
    /// error comes back (at its depth, below whatever deeper steps the error already names), so
    /// nested models and arrays allocate no path while decoding succeeds.
    ///
    /// Inlinable, as the generic `decode` and `require` below are: the module that declares a
    /// model specialises them for its types, where generic code would ask the runtime for the
    /// metadata of `T?` on every call. What they call is internal and not generic.
    @inlinable
    mutating func readNested<T>(
        _ key: StaticString, _ coercion: ModelDecoder.Coercion?, _ dates: ModelDecoder.DateDecodingStrategy?,
        _ read: (TapeReader, Int, [any CodingKey]) throws -> T
    ) throws -> T? {
        guard let (reader, index) = nestedValue(key, coercion, dates) else { return nil }
        do {
            return try read(reader, index, codingPath)
        } catch let error as DecodingError {
            throw nestedError(error, key)
        }
    }

    /// The member `key`'s tape index and the reader for it, or `nil` when it is absent or null.
    @usableFromInline
    mutating func nestedValue(
        _ key: StaticString, _ coercion: ModelDecoder.Coercion?, _ dates: ModelDecoder.DateDecodingStrategy?
    ) -> (TapeReader, Int)? {
        guard let index = valueIndex(of: key), !reader.isNull(at: index) else { return nil }
        return (reader(for: coercion, dates: dates), index)
    }

    /// `error`, from reading the member `key`, with the key in its coding path.
    @usableFromInline
    func nestedError(_ error: DecodingError, _ key: StaticString) -> DecodingError {
        error.addingKey(_ModelKey(key.description), below: codingPath, evenIfDeeper: true)
    }

    /// An integer member. A JSON integer that fits is the common case under either coercion and
    /// is read here; everything else goes through the reader's rules.
    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: StaticString, _ coercion: ModelDecoder.Coercion?) throws -> T? {
        guard let index = valueIndex(of: key) else { return nil }
        switch view.tag(at: index) {
        case .int64: if let value = T(exactly: Int64(bitPattern: view[index + 1])) { return value }
        case .uint64: if let value = T(exactly: view[index + 1]) { return value }
        default: break
        }
        return try read(at: index, key, coercion) { try $0.decodeInteger(type, at: $1, path: $2) }
    }

    /// The member `key` as `Int` under `coercion` (the decoder's when `nil`), or `nil` when it is absent or null.
    public mutating func decode(_ type: Int.Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil) throws -> Int? {
        try integer(type, key, coercion)
    }

    /// The member `key` as `Int64` under `coercion` (the decoder's when `nil`), or `nil` when it is absent or null.
    public mutating func decode(_ type: Int64.Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil) throws -> Int64? {
        try integer(type, key, coercion)
    }

    /// The member `key` as `UInt64` under `coercion` (the decoder's when `nil`), or `nil` when it is absent or null.
    public mutating func decode(_ type: UInt64.Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil) throws -> UInt64? {
        try integer(type, key, coercion)
    }

    /// The member `key` as `Double` under `coercion` (the decoder's when `nil`), or `nil` when it is absent or null.
    public mutating func decode(_ type: Double.Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil) throws -> Double? {
        guard let index = valueIndex(of: key) else { return nil }
        switch view.tag(at: index) {
        case .double: return Double(bitPattern: view[index + 1])
        case .int64: return Double(Int64(bitPattern: view[index + 1]))
        default: return try read(at: index, key, coercion) { try $0.decodeFloat(type, at: $1, path: $2) }
        }
    }

    /// The member `key` as `Bool` under `coercion` (the decoder's when `nil`), or `nil` when it is absent or null.
    public mutating func decode(_ type: Bool.Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil) throws -> Bool? {
        guard let index = valueIndex(of: key) else { return nil }
        switch view.tag(at: index) {
        case .true: return true
        case .false: return false
        default: return try read(at: index, key, coercion) { try $0.decodeBool(at: $1, path: $2) }
        }
    }

    /// The member `key` as `String` under `coercion` (the decoder's when `nil`), or `nil` when it is absent or null.
    public mutating func decode(_ type: String.Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil) throws -> String? {
        guard let index = valueIndex(of: key) else { return nil }
        if view.tag(at: index) == .string {
            let raw = view.rawBytes(ofStringAt: index)
            // Leniently, YYModel's null words (3 to 6 bytes) read as nil: those take the long way.
            if !(3...6).contains(raw.count) || !isLenient(coercion) { return String(decoding: raw, as: UTF8.self) }
        }
        return try read(at: index, key, coercion) { try $0.decodeString(at: $1, path: $2) }
    }

    /// The member `key` decoded as `T` under `coercion` (the decoder's when `nil`), or `nil` when it is absent or null.
    @inlinable
    public mutating func decode<T: Decodable>(
        _ type: T.Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil,
        dates: ModelDecoder.DateDecodingStrategy? = nil
    ) throws -> T? {
        try readNested(key, coercion, dates) { try $0.decode(type, at: $1, path: $2) }
    }

    /// A `@Model` member: read straight from the tape, the type known at compile time.
    @inlinable
    public mutating func decode<T: _TapeDecodable>(
        _ type: T.Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil,
        dates: ModelDecoder.DateDecodingStrategy? = nil
    ) throws -> T? {
        try readNested(key, coercion, dates) { try $0.decodeModel(type, at: $1, path: $2) }
    }

    /// An array of `@Model` values: each element read straight from the tape.
    @inlinable
    public mutating func decode<T: _TapeDecodable>(
        _ type: [T].Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil,
        dates: ModelDecoder.DateDecodingStrategy? = nil
    ) throws -> [T]? {
        try readNested(key, coercion, dates) { try $0.decodeModels(T.self, at: $1, path: $2) }
    }

    /// The value at the first of `paths` (key paths) that is present and not null, or `nil`.
    public mutating func decode<T: Decodable>(
        _ type: T.Type, paths: [[String]], coercion: ModelDecoder.Coercion? = nil,
        dates: ModelDecoder.DateDecodingStrategy? = nil
    ) throws -> T? {
        guard let (index, path) = valueIndex(paths: paths) else { return nil }
        return try reader(for: coercion, dates: dates).decode(type, at: index, path: path)
    }

    /// Like `decode(_:key:coercion:)`, but the member must be present and not null: `DecodingError.keyNotFound` otherwise.
    public mutating func require(_ type: Int.Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil) throws -> Int {
        guard let value = try decode(type, key: key, coercion: coercion) else { throw missing(key.description) }
        return value
    }

    /// Like `decode(_:key:coercion:)`, but the member must be present and not null: `DecodingError.keyNotFound` otherwise.
    public mutating func require(_ type: Int64.Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil) throws -> Int64 {
        guard let value = try decode(type, key: key, coercion: coercion) else { throw missing(key.description) }
        return value
    }

    /// Like `decode(_:key:coercion:)`, but the member must be present and not null: `DecodingError.keyNotFound` otherwise.
    public mutating func require(_ type: UInt64.Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil) throws -> UInt64 {
        guard let value = try decode(type, key: key, coercion: coercion) else { throw missing(key.description) }
        return value
    }

    /// Like `decode(_:key:coercion:)`, but the member must be present and not null: `DecodingError.keyNotFound` otherwise.
    public mutating func require(_ type: Double.Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil) throws -> Double {
        guard let value = try decode(type, key: key, coercion: coercion) else { throw missing(key.description) }
        return value
    }

    /// Like `decode(_:key:coercion:)`, but the member must be present and not null: `DecodingError.keyNotFound` otherwise.
    public mutating func require(_ type: Bool.Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil) throws -> Bool {
        guard let value = try decode(type, key: key, coercion: coercion) else { throw missing(key.description) }
        return value
    }

    /// Like `decode(_:key:coercion:)`, but the member must be present and not null: `DecodingError.keyNotFound` otherwise.
    public mutating func require(_ type: String.Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil) throws -> String {
        guard let value = try decode(type, key: key, coercion: coercion) else { throw missing(key.description) }
        return value
    }

    /// Like `decode(_:key:coercion:)`, but the member must be present and not null: `DecodingError.keyNotFound` otherwise.
    @inlinable
    public mutating func require<T: Decodable>(
        _ type: T.Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil,
        dates: ModelDecoder.DateDecodingStrategy? = nil
    ) throws -> T {
        guard let value = try decode(type, key: key, coercion: coercion, dates: dates) else { throw missing(key.description) }
        return value
    }

    /// A `@Model` member that must be present.
    @inlinable
    public mutating func require<T: _TapeDecodable>(
        _ type: T.Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil,
        dates: ModelDecoder.DateDecodingStrategy? = nil
    ) throws -> T {
        guard let value = try decode(type, key: key, coercion: coercion, dates: dates) else { throw missing(key.description) }
        return value
    }

    /// An array of `@Model` values that must be present.
    @inlinable
    public mutating func require<T: _TapeDecodable>(
        _ type: [T].Type, key: StaticString, coercion: ModelDecoder.Coercion? = nil,
        dates: ModelDecoder.DateDecodingStrategy? = nil
    ) throws -> [T] {
        guard let value = try decode(type, key: key, coercion: coercion, dates: dates) else { throw missing(key.description) }
        return value
    }

    /// Like `decode(_:paths:coercion:dates:)`, but a value must be found: `DecodingError.keyNotFound` otherwise.
    public mutating func require<T: Decodable>(
        _ type: T.Type, paths: [[String]], coercion: ModelDecoder.Coercion? = nil,
        dates: ModelDecoder.DateDecodingStrategy? = nil
    ) throws -> T {
        guard let value = try decode(type, paths: paths, coercion: coercion, dates: dates) else {
            throw missing(paths.map { $0.joined(separator: ".") }.joined(separator: " or "))
        }
        return value
    }
}

extension DecodingError {
    /// The same error with `key` inserted into its coding path just below `parent`.
    func addingKey(_ key: any CodingKey, below parent: [any CodingKey], evenIfDeeper: Bool = false) -> DecodingError {
        func amend(_ context: Context) -> Context {
            let path = context.codingPath
            guard path.count == parent.count || (evenIfDeeper && path.count > parent.count) else { return context }  // already there
            return Context(
                codingPath: parent + [key] + path.dropFirst(parent.count), debugDescription: context.debugDescription,
                underlyingError: context.underlyingError)
        }
        switch self {
        case .typeMismatch(let type, let context): return .typeMismatch(type, amend(context))
        case .valueNotFound(let type, let context): return .valueNotFound(type, amend(context))
        case .keyNotFound(let missing, let context): return .keyNotFound(missing, amend(context))
        case .dataCorrupted(let context): return .dataCorrupted(amend(context))
        @unknown default: return self
        }
    }
}

extension ModelCodable {
    /// Manual `ModelCodable` conformers are read through `init(from:)`; `@Model` generates a
    /// faster version.
    public init(_tape object: _TapeObject) throws {
        try self.init(from: object.decoder)
    }

    /// Manual conformers, and models with a `modelDidEncode` hook, are written through the tree;
    /// `@Model` generates a direct version for the others.
    public func _encode(to writer: inout _ModelWriter) throws {
        try writer.encodeThroughTree(self)
    }
}
