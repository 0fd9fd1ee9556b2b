import Foundation

/// A model type ``ModelEncoder`` can write straight into its output, without building a tree.
/// `@Model` implements it (except for types with a `modelDidEncode` hook, which keep the tree the
/// hook edits); the name starts with `_` because generated code calls it.
@_documentation(visibility: internal)
public protocol _DirectEncodable: Encodable {
    func _encode(to writer: inout _ModelWriter) throws
}

/// The output `@Model`'s generated `_encode(to:)` writes members into.
@_documentation(visibility: internal)
public struct _ModelWriter {
    var output: JSONOutput
    let options: ModelEncoder
    /// Per open object: whether the next member is the first.
    private var first: [Bool] = []
    /// Objects and arrays open, against `options.maximumDepth`.
    private var depth = 0

    init(options: ModelEncoder) {
        self.options = options
        output = JSONOutput(pretty: options.pretty)
    }

    /// Opens a JSON object (`{`).
    public mutating func beginObject() {
        output.open(UInt8(ascii: "{"))
        first.append(true)
        depth += 1
    }

    /// Closes the innermost open object (`}`).
    public mutating func endObject() {
        let empty = first.removeLast()
        depth -= 1
        output.close(UInt8(ascii: "}"), empty: empty)
    }

    /// Starts a member: a comma when needed, then the key.
    public mutating func key(_ key: StaticString) {
        output.separate(first: first[first.count - 1])
        first[first.count - 1] = false
        output.appendKey(key.description)
    }

    // Every `value` throws, so that generated code can write `try` before each without warnings.
    /// Writes a member's value (after ``key(_:)``) or an array element.
    public mutating func value(_ value: Int) throws { output.appendInteger(Int64(value)) }
    public mutating func value(_ value: Int64) throws { output.appendInteger(value) }
    public mutating func value(_ value: UInt64) throws { output.appendInteger(value) }
    public mutating func value(_ value: Bool) throws { output.append(value ? "true" : "false") }
    public mutating func value(_ value: String) throws { output.appendString(value) }

    public mutating func value(_ value: Double) throws {
        if value.isFinite { try output.appendDouble(value) } else { try write(TreeEncoder(options: options, codingPath: []).box(value, path: [])) }
    }

    /// Nested models directly; arrays element by element; anything else through the tree encoder.
    public mutating func value<T: Encodable>(_ value: T) throws {
        if let model = value as? any _DirectEncodable {
            guard depth < options.maximumDepth else { throw ModelEncoder.tooDeep(value, codingPath: []) }
            try model._encode(to: &self)
        } else {
            try encodeThroughTree(value)
        }
    }

    /// Writes `value` by building its tree first: for types without a direct writer, and for
    /// models whose `modelDidEncode` hook edits that tree.
    public mutating func encodeThroughTree<T: Encodable>(_ value: T) throws {
        // The tree starts at this writer's depth: it gets what is left of the limit.
        var options = self.options
        options.maximumDepth -= depth
        try write(TreeEncoder(options: options, codingPath: []).box(value))
    }

    /// Arrays element by element through this writer's own `value` methods (so nested models stay
    /// direct); that is why this loop does not use `JSONOutput.writeArray`, whose closure gets the
    /// output alone.
    public mutating func value<T: Encodable>(_ array: [T]) throws {
        guard depth < options.maximumDepth else { throw ModelEncoder.tooDeep(array, codingPath: []) }
        depth += 1
        defer { depth -= 1 }
        output.open(UInt8(ascii: "["))
        for (index, element) in array.enumerated() {
            output.separate(first: index == 0)
            switch element {
            case let number as Int: try value(number)
            case let text as String: try value(text)
            case let number as Double: try value(number)
            case let flag as Bool: try value(flag)
            default: try value(element)
            }
        }
        output.close(UInt8(ascii: "]"), empty: array.isEmpty)
    }

    private mutating func write(_ node: EncodedNode) throws {
        try ModelEncoder.write(node, to: &output, sortedKeys: false)
    }
}
