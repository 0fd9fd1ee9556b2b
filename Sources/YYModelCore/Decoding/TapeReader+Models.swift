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
    func decodeModel<T: _TapeDecodable>(_ type: T.Type, at index: Int, path: [any CodingKey]) throws -> T {
        guard view.tag(at: index) == .objectStart else { return try decode(T.self, at: index, path: path) }
        return try T(_tape: _TapeObject(reader: self, start: index, codingPath: path))
    }

    /// An array of `@Model` values, each element read straight from the tape.
    func decodeModels<T: _TapeDecodable>(_ type: T.Type, at index: Int, path: [any CodingKey]) throws -> [T] {
        guard view.tag(at: index) == .arrayStart else { return try decode([T].self, at: index, path: path) }
        return try elements(ofArrayAt: index, path: path, nested: true) { try decodeModel(T.self, at: $0, path: path) }
    }

    /// The elements of the array at `index`, each read by `read`; a failure gets the element's
    /// index added to its coding path right below `path` (`nested`: also when the failure lies
    /// deeper, inside a nested array or model that was read without this index in its path).
    func elements<T>(ofArrayAt index: Int, path: [any CodingKey], nested: Bool = false, _ read: (Int) throws -> T) throws -> [T] {
        var elements: [T] = []
        elements.reserveCapacity(view.count(ofContainerAt: index))
        let end = Int(view.payload(at: index))
        var cursor = index + 1
        while cursor < end {
            do {
                elements.append(try read(cursor))
            } catch let error as DecodingError {
                throw error.addingKey(IndexKey(elements.count), below: path, evenIfDeeper: nested)
            }
            cursor = view.indexAfterValue(at: cursor)
        }
        return elements
    }
}
