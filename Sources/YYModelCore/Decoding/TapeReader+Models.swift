import Foundation

// `@Model` types read by `TapeReader` through their generated tape initializer.

extension TapeReader {
    /// A `@Model` type read straight from the tape when the value is an object (anything else
    /// goes through `decode`, which applies the coercion rules). `model` is `T` itself, found by a
    /// cast where `T` is only known to be `Decodable`.
    func decodeModel<T: Decodable>(_ model: any _TapeDecodable.Type, as type: T.Type, at index: Int, path: [any CodingKey]) throws -> T {
        func read<Model: _TapeDecodable>(_ model: Model.Type) throws -> T { try decodeModel(model, at: index, path: path) as! T }
        return try read(model)
    }

    /// A `@Model` type known at compile time: no casts.
    ///
    /// This and the generic reads below are inlinable so that they are specialised for each model
    /// type in the module that declares it; left generic, every call asked the runtime for the
    /// metadata of `T?` and `[T]`. What they call is not generic and stays here.
    @inlinable
    func decodeModel<T: _TapeDecodable>(_ type: T.Type, at index: Int, path: [any CodingKey]) throws -> T {
        guard isObject(at: index) else { return try decode(T.self, at: index, path: path) }
        return try T(_tape: _TapeObject(reader: self, start: index, codingPath: path))
    }

    /// An array of `@Model` values, each element read straight from the tape.
    @inlinable
    func decodeModels<T: _TapeDecodable>(_ type: T.Type, at index: Int, path: [any CodingKey]) throws -> [T] {
        guard isArray(at: index) else { return try decode([T].self, at: index, path: path) }
        return try elements(ofArrayAt: index, path: path, nested: true) { try decodeModel(T.self, at: $0, path: path) }
    }

    /// The elements of the array at `index`, each read by `read`; a failure gets the element's
    /// index added to its coding path right below `path` (`nested`: also when the failure lies
    /// deeper, inside a nested array or model that was read without this index in its path).
    @inlinable
    func elements<T>(ofArrayAt index: Int, path: [any CodingKey], nested: Bool = false, _ read: (Int) throws -> T) throws -> [T] {
        var elements: [T] = []
        elements.reserveCapacity(elementCount(ofArrayAt: index))
        let end = endOfContainer(at: index)
        var cursor = index + 1
        while cursor < end {
            do {
                elements.append(try read(cursor))
            } catch let error as DecodingError {
                throw elementError(error, index: elements.count, below: path, nested: nested)
            }
            cursor = indexAfterValue(at: cursor)
        }
        return elements
    }

    // What the inlinable reads call: small, not generic, kept in this module.

    @usableFromInline
    func isObject(at index: Int) -> Bool { view.tag(at: index) == .objectStart }

    @usableFromInline
    func isArray(at index: Int) -> Bool { view.tag(at: index) == .arrayStart }

    @usableFromInline
    func elementCount(ofArrayAt index: Int) -> Int { view.count(ofContainerAt: index) }

    /// The tape index of the end word of the container starting at `index`.
    @usableFromInline
    func endOfContainer(at index: Int) -> Int { Int(view.payload(at: index)) }

    @usableFromInline
    func indexAfterValue(at index: Int) -> Int { view.indexAfterValue(at: index) }

    @usableFromInline
    func elementError(_ error: DecodingError, index: Int, below path: [any CodingKey], nested: Bool) -> DecodingError {
        error.addingKey(IndexKey(index), below: path, evenIfDeeper: nested)
    }
}
