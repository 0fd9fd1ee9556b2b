import Foundation

/// What the encoder builds before writing: containers are classes so that nested containers can
/// keep filling them after they were attached.
enum EncodedNode {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array(ArrayBox)
    case object(ObjectBox)

    /// Whether this is an array or an object.
    var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }

    final class ArrayBox {
        var elements: [EncodedNode] = []
    }

    /// An object's members in encoding order. Keys are rarely encoded twice, so duplicates are
    /// found by scanning keys of the same length; large objects get a dictionary index.
    final class ObjectBox {
        private(set) var members: [(key: String, node: EncodedNode)] = []
        private var index: [String: Int]?
        private static let indexThreshold = 32

        /// Sets a member; a new key goes last, a repeated key keeps its place.
        func set(_ node: EncodedNode, for key: String) {
            if let position = position(of: key) {
                members[position].node = node
            } else {
                members.append((key, node))
                index?[key] = members.count - 1
            }
        }

        private func position(of key: String) -> Int? {
            if let index { return index[key] }
            if members.count >= Self.indexThreshold {
                index = Dictionary(members.enumerated().map { ($0.element.key, $0.offset) }, uniquingKeysWith: { first, _ in first })
                return index![key]
            }
            let length = key.utf8.count
            return members.firstIndex { $0.key.utf8.count == length && $0.key == key }
        }
    }

    var jsonValue: JSONValue {
        switch self {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .uint(let number): .uint(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .array(let box): .array(box.elements.map(\.jsonValue))
        case .object(let box): .object(Dictionary(box.members.map { ($0.key, $0.node.jsonValue) }, uniquingKeysWith: { _, last in last }))
        }
    }
}

/// The `Encoder` that fills an ``EncodedNode``.
final class TreeEncoder: Encoder {
    let options: ModelEncoder
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What was encoded here; a container once one is asked for.
    var node: EncodedNode? {
        didSet { if let node { attach?(node) } }
    }
    /// For super-encoders: puts what this encoder produces into the parent's slot.
    private let attach: ((EncodedNode) -> Void)?

    init(options: ModelEncoder, codingPath: [any CodingKey], attach: ((EncodedNode) -> Void)? = nil) {
        self.options = options
        self.codingPath = codingPath
        self.attach = attach
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: EncodedNode.ObjectBox
        if case .object(let existing) = node {
            box = existing
        } else {
            box = EncodedNode.ObjectBox()
            node = .object(box)
        }
        return KeyedEncodingContainer(ObjectEncodingContainer<Key>(encoder: self, box: box))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: EncodedNode.ArrayBox
        if case .array(let existing) = node {
            box = existing
        } else {
            box = EncodedNode.ArrayBox()
            node = .array(box)
        }
        return ArrayEncodingContainer(encoder: self, box: box)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ValueEncodingContainer(encoder: self)
    }

    /// Encodes a value into a node, with the special forms of Foundation types.
    func box<T: Encodable>(_ value: T, at path: [any CodingKey]? = nil) throws -> EncodedNode {
        let path = path ?? codingPath
        switch value {
        case let date as Date: return try box(date, path: path)
        case let data as Data: return .string(data.base64EncodedString())
        case let url as URL: return .string(url.absoluteString)
        case let decimal as Decimal:
            return (try? JSONValue(parsing: decimal.description)).map { EncodedNode($0) } ?? .string(decimal.description)
        case let json as JSONValue: return EncodedNode(json)
        case let number as Double: return try box(number, path: path)
        case let number as Float: return try box(Double(number), path: path)
        default:
            // A value inside `maximumDepth` containers may be a scalar, not one more container;
            // deeper than that, nothing is encoded (each level is a call deeper).
            guard path.count <= options.maximumDepth else { throw ModelEncoder.tooDeep(value, codingPath: path) }
            let encoder = TreeEncoder(options: options, codingPath: path)
            try value.encode(to: encoder)
            let node = encoder.node ?? .object(EncodedNode.ObjectBox())
            if path.count == options.maximumDepth, node.isContainer { throw ModelEncoder.tooDeep(value, codingPath: path) }
            return node
        }
    }

    func box(_ date: Date, path: [any CodingKey]) throws -> EncodedNode {
        switch options.dateEncodingStrategy {
        case .yyModel:
            guard ModelDateParser.writableRange.contains(date.timeIntervalSince1970) else {
                // The value carried is the number, not the Date: Foundation's Date.description
                // traps on dates this far out, and errors get printed.
                throw EncodingError.invalidValue(
                    date.timeIntervalSince1970,
                    .init(
                        codingPath: path,
                        debugDescription:
                            "\(date.timeIntervalSince1970) s since 1970 is outside the years 0001-9999 that the yyModel date format writes"))
            }
            return .string(ModelDateParser.string(from: date))
        case .secondsSince1970: return try box(date.timeIntervalSince1970, path: path)
        case .millisecondsSince1970: return try box((date.timeIntervalSince1970 * 1000).rounded(), path: path)
        case .custom(let format): return .string(format(date))
        }
    }

    func box(_ number: Double, path: [any CodingKey]) throws -> EncodedNode {
        if number.isFinite { return .double(number) }
        guard case .convertToString(let positive, let negative, let nan) = options.nonConformingFloatEncodingStrategy else {
            throw EncodingError.invalidValue(number, .init(codingPath: path, debugDescription: "Unable to encode \(number) directly in JSON."))
        }
        return .string(number.isNaN ? nan : number > 0 ? positive : negative)
    }

    func key(_ key: some CodingKey) -> String {
        options.keyEncodingStrategy == .convertToSnakeCase ? ModelEncoder.snakeCase(fromCamelCase: key.stringValue) : key.stringValue
    }
}

extension EncodedNode {
    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .int(number)
        case .uint(let number): self = .uint(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .array(let elements):
            let box = ArrayBox()
            box.elements = elements.map { EncodedNode($0) }
            self = .array(box)
        case .object(let members):
            let box = ObjectBox()
            for key in members.keys.sorted() { box.set(EncodedNode(members[key]!), for: key) }
            self = .object(box)
        }
    }
}
