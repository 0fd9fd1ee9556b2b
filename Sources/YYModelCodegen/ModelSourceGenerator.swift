package import YYModelCore

/// Writes Swift source for `@Model` types that fit a JSON sample (`yy json model`).
///
/// Objects become structs (nested objects get their own types, named after their key; array
/// elements after the singular of theirs). Samples are merged: an integer that is a double
/// elsewhere is `Double`, a member missing or `null` somewhere is optional, mixed kinds are
/// `JSONValue`. Keys that are not Swift identifiers get a camelCase property and `@Key`. A type
/// name already taken, one the generated code needs (`String`, `Model`, `Self`…), or one that
/// would shadow a standard library or Foundation type (`Data`, `Error`…) gets a number
/// (`String2`).
///
/// Its own module, apart from the runtime (YYModelCore), because only tools need it.
package struct ModelSourceGenerator: Sendable {
    /// Creates a generator.
    package init() {}

    /// The source of the root type `typeName` and the types it uses.
    package func source(for sample: JSONValue, typeName: String) throws(ModelSourceGeneratorError) -> String {
        var root = Shape.null
        switch sample {
        case .object: root = Shape(sample)
        case .array(let elements):
            root = elements.reduce(Shape.null) { $0.merged(with: Shape($1)) }
            guard case .object = root else { throw .notAnObject }
        default: throw .notAnObject
        }
        guard case .object(let fields) = root else { throw .notAnObject }
        var emitter = Emitter()
        // A root name that can name a type is the caller's choice, kept as written
        // (`APIResponse`, not `Apiresponse`); anything else is made into one, as keys are.
        let rootName = Self.canNameType(typeName) ? typeName : Self.typeName(typeName)
        emitter.emit(typeName: emitter.claimTypeName(rootName), fields: fields)
        return (["import YYModel"] + emitter.declarations).joined(separator: "\n\n") + "\n"
    }

    // MARK: Shapes

    /// What a sample tells about a value's type.
    indirect enum Shape: Equatable {
        case null, bool, int, double, string, mixed
        case array(Shape)
        case object([Field])

        struct Field: Equatable {
            var key: String
            var shape: Shape
            var optional: Bool
        }

        init(_ value: JSONValue) {
            switch value {
            case .null: self = .null
            case .bool: self = .bool
            case .int, .uint: self = .int
            case .double: self = .double
            case .string: self = .string
            case .array(let elements): self = .array(elements.reduce(Shape.null) { $0.merged(with: Shape($1)) })
            case .object(let members):
                self = .object(members.keys.sorted().map { Field(key: $0, shape: Shape(members[$0]!), optional: members[$0] == .null) })
            }
        }

        func merged(with other: Shape) -> Shape {
            switch (self, other) {
            case (.null, _): return other
            case (_, .null): return self
            case (.int, .double), (.double, .int): return .double
            case (.array(let a), .array(let b)): return .array(a.merged(with: b))
            case (.object(let a), .object(let b)):
                var merged: [Field] = []
                for field in a {
                    if let match = b.first(where: { $0.key == field.key }) {
                        merged.append(
                            Field(
                                key: field.key, shape: field.shape.merged(with: match.shape),
                                optional: field.optional || match.optional))
                    } else {
                        merged.append(Field(key: field.key, shape: field.shape, optional: true))
                    }
                }
                for field in b where !a.contains(where: { $0.key == field.key }) {
                    merged.append(Field(key: field.key, shape: field.shape, optional: true))
                }
                return .object(merged)
            default: return self == other ? self : .mixed
            }
        }
    }

    // MARK: Emitting

    struct Emitter {
        var declarations: [String] = []
        var usedNames: Set<String> = []

        mutating func emit(typeName: String, fields: [Shape.Field]) {
            usedNames.insert(typeName)
            var lines = ["@Model", "struct \(typeName) {"]
            var pending: [(String, [Shape.Field])] = []
            var usedProperties: Set<String> = []
            for field in fields {
                var property = ModelSourceGenerator.propertyName(field.key)
                while usedProperties.contains(property) { property += "_" }
                usedProperties.insert(property)
                let type = swiftType(field.shape, key: field.key, pending: &pending)
                let optional = field.optional || field.shape == .null
                let attribute = property == field.key ? "" : "@Key(\(ModelSourceGenerator.keyArgument(field.key))) "
                lines.append("    \(attribute)var \(ModelSourceGenerator.escapedIdentifier(property)): \(type)\(optional ? "?" : "")")
            }
            lines.append("}")
            declarations.append(lines.joined(separator: "\n"))
            for (name, nested) in pending { emit(typeName: name, fields: nested) }
        }

        mutating func swiftType(_ shape: Shape, key: String, pending: inout [(String, [Shape.Field])]) -> String {
            switch shape {
            case .null, .mixed: return "JSONValue"
            case .bool: return "Bool"
            case .int: return "Int"
            case .double: return "Double"
            case .string: return "String"
            case .array(let element):
                return "[" + swiftType(element, key: ModelSourceGenerator.singular(key), pending: &pending) + "]"
            case .object(let fields):
                let name = claimTypeName(ModelSourceGenerator.typeName(key))
                pending.append((name, fields))
                return name
            }
        }

        /// `base`, or `base2`, `base3`… when an earlier type took it or the generated code
        /// needs it to mean what it means in Swift.
        mutating func claimTypeName(_ base: String) -> String {
            var name = base
            var suffix = 2
            while usedNames.contains(name) || ModelSourceGenerator.reservedTypeNames.contains(name) {
                name = base + String(suffix)
                suffix += 1
            }
            usedNames.insert(name)
            return name
        }
    }

    // MARK: Names

    /// `created_at` → `createdAt`; other separators and leading digits handled too.
    static func propertyName(_ key: String) -> String {
        let words = words(of: key)
        guard let first = words.first else { return "value" }
        let name = first.lowercased() + words.dropFirst().map(capitalized).joined()
        return name.first.map { $0.isNumber } == true ? "_" + name : name
    }

    /// Whether `name` is an identifier that is no keyword (`APIResponse`, `_Raw`; not `class`,
    /// `_` or `2fa`).
    static func canNameType(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter || (first == "_" && name.count > 1) else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !keywords.contains(name)
    }

    /// `user_mentions` → `UserMentions`.
    static func typeName(_ key: String) -> String {
        let name = words(of: key).map(capitalized).joined()
        if name.isEmpty { return "Model" }
        return name.first!.isNumber ? "Model" + name : name
    }

    /// A rough English singular for array element types: `statuses` → `status`, `categories` → `category`.
    static func singular(_ key: String) -> String {
        let lower = key.lowercased()
        if lower.hasSuffix("ies") { return String(key.dropLast(3)) + "y" }
        if lower.hasSuffix("sses") || lower.hasSuffix("uses") || lower.hasSuffix("xes") { return String(key.dropLast(2)) }
        if lower.hasSuffix("s") && !lower.hasSuffix("ss") && !lower.hasSuffix("us") { return String(key.dropLast()) }
        return key + "Item"
    }

    private static func words(of key: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in key {
            if character.isLetter || character.isNumber {
                if character.isUppercase, let last = current.last, last.isLowercase {
                    words.append(current)
                    current = ""
                }
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.filter { $0.allSatisfy { $0.isASCII } }
    }

    private static func capitalized(_ word: String) -> String {
        word.prefix(1).uppercased() + word.dropFirst().lowercased()
    }

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "Any", "catch", "false", "is",
        "nil", "super", "self", "Self", "throw", "throws", "true", "try", "Type", "protocol",
    ]

    /// Names a generated struct must not take: keywords that cannot name a type, and the
    /// types, macros and modules the generated code and `@Model`'s expansion refer to, which a
    /// struct of the same name would shadow (a key "string" must not turn `String` into a model).
    ///
    /// The generated structs are declared at the top level of the user's module, so one named
    /// after a standard library or Foundation type would shadow that type in every file of the
    /// module: API responses very often have a "data", "error" or "result" object, and
    /// `struct Data` would break each use of Foundation's. Those names are reserved too.
    static let reservedTypeNames: Set<String> = [
        "Any", "Self", "Type", "Protocol",
        "Bool", "Int", "Double", "String", "JSONValue", "Model", "Key", "Decoder", "Encoder",
        "Swift", "YYModel", "YYModelCore",
        // The standard library: value types, and protocols a model type may name.
        "Array", "Character", "Dictionary", "Duration", "Error", "Float", "Int8", "Int16", "Int32",
        "Int64", "Mirror", "Never", "Optional", "Range", "Result", "Sequence", "Collection", "Set",
        "Slice", "Substring", "Task", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Unicode",
        "Void", "Codable", "Decodable", "Encodable", "Equatable", "Hashable", "Comparable",
        "Identifiable", "Sendable", "Actor", "Clock",
        // Foundation value types and classes whose names are ordinary words.
        "Foundation", "Data", "Date", "URL", "UUID", "Decimal", "Locale", "Calendar", "TimeZone",
        "Measurement", "Notification", "Bundle", "Process", "Thread", "Timer", "Operation",
        "Progress", "Host", "Port", "Stream", "Scanner", "Formatter", "Expression", "Predicate",
    ]

    static func escapedIdentifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// What `@Key` takes to read `key` as written: a plain literal, or `verbatim:` when a dot
    /// would make it a key path or it is empty.
    static func keyArgument(_ key: String) -> String {
        key.isEmpty || key.contains(".") ? "verbatim: \(literal(key))" : literal(key)
    }

    static func literal(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default:
                if scalar.value < 0x20 { escaped += "\\u{\(String(scalar.value, radix: 16))}" } else { escaped.unicodeScalars.append(scalar) }
            }
        }
        return "\"\(escaped)\""
    }
}

/// Why ``ModelSourceGenerator`` can make no model.
package enum ModelSourceGeneratorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sample is not an object or an array of objects.
    case notAnObject

    /// A plain-language account of the error.
    package var description: String { "a model needs a JSON object (or an array of objects) as sample" }
}
