import SwiftDiagnostics
public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// `@Model`: generates `init(from:)` and `encode(to:)` from the stored properties and their
/// field attributes, and the `ModelCodable` conformance.
///
/// Structs get both members in the extension (so the memberwise initializer stays); final classes
/// get `init(from:)` in the class body, where Swift requires a class's designated initializers.
public struct ModelMacro: ExtensionMacro, MemberMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let kind = Kind(declaration, in: context), let fields = ModelField.fields(of: declaration, in: context) else {
            return []
        }
        let access = accessPrefix(of: declaration)
        let hooks = Hooks(declaration)
        var members: [String] = []
        if kind == .structure {
            members.append(decodingInitializer(fields, access: access, hooks: hooks))
            members.append(tapeInitializer(fields, access: access, hooks: hooks))
        }
        members.append(encodingMethod(fields, access: access, hooks: hooks))
        if !hooks.didEncode { members.append(directEncodingMethod(fields, access: access)) }
        let conformance = protocols.isEmpty ? "" : ": YYModelCore.ModelCodable"
        let source = "extension \(type.trimmedDescription)\(conformance) {\n\(members.joined(separator: "\n\n"))\n}"
        return [try ExtensionDeclSyntax("\(raw: source)")]
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        // The extension expansion reports problems; this one passes no context to avoid doubles.
        guard declaration.is(ClassDeclSyntax.self), Kind(declaration, in: nil) == .finalClass,
            let fields = ModelField.fields(of: declaration, in: nil)
        else { return [] }
        let access = accessPrefix(of: declaration)
        let hooks = Hooks(declaration)
        return ["\(raw: decodingInitializer(fields, access: access, hooks: hooks))", "\(raw: tapeInitializer(fields, access: access, hooks: hooks))"]
    }

    /// The hooks a type declares itself; the generated code takes the slower path through
    /// `JSONValue` only for these.
    struct Hooks {
        var willDecode = false
        var didEncode = false

        init(_ declaration: some DeclGroupSyntax) {
            for member in declaration.memberBlock.members {
                guard let function = member.decl.as(FunctionDeclSyntax.self) else { continue }
                switch function.name.text {
                case "modelWillDecode": willDecode = true
                case "modelDidEncode": didEncode = true
                default: continue
                }
            }
        }
    }

    enum Kind { case structure, finalClass }

    // MARK: Generation

    static func decodingInitializer(_ fields: [ModelField], access: String, hooks: Hooks) -> String {
        let open =
            hooks.willDecode
            ? "try YYModelCore._ModelFieldReader(Self.modelWillDecode(YYModelCore.JSONValue(from: decoder)), like: decoder)"
            : "try YYModelCore._ModelFieldReader(decoder)"
        let prologue = fields.contains { !$0.isIgnored } ? "let reader = \(open)" : "_ = \(open)"
        return initializer("init(from decoder: any Decoder)", access: access, prologue: prologue, fields: fields) { field in
            ("reader", "paths: " + pathsLiteral(field.paths))
        }
    }

    /// The fast path `ModelDecoder` takes: members read straight from its tape. Single keys are
    /// static strings (no allocation); key paths and fallback keys go through arrays.
    static func tapeInitializer(_ fields: [ModelField], access: String, hooks: Hooks) -> String {
        let signature = "init(_tape object: YYModelCore._TapeObject)"
        if hooks.willDecode {
            return "\(access)\(signature) throws {\n    try self.init(from: object.decoder)\n}"
        }
        let prologue = fields.contains { !$0.isIgnored } ? "var object = object" : nil
        return initializer(signature, access: access, prologue: prologue, fields: fields) { field in
            let single = field.paths.count == 1 && field.paths[0].count == 1
            return ("object", single ? "key: \(swiftStringLiteral(field.paths[0][0]))" : "paths: " + pathsLiteral(field.paths))
        }
    }

    /// An initializer that assigns every field: ignored ones keep their initial value (or `nil`),
    /// the others are read through `source(field)` — which reader, and where — with `decode` (then
    /// the initial value) for optional or defaulted fields and `require` for the rest.
    private static func initializer(
        _ signature: String, access: String, prologue: String?, fields: [ModelField],
        source: (ModelField) -> (reader: String, location: String)
    ) -> String {
        var lines = ["\(access)\(signature) throws {"]
        if let prologue { lines.append("    " + prologue) }
        for field in fields {
            if field.isIgnored {
                if field.defaultValue == nil { lines.append("    \(field.selfMember) = nil") }
                continue
            }
            let (reader, location) = source(field)
            let options = (field.coercion.map { ", coercion: \($0)" } ?? "") + (field.dateFormat.map { ", dates: \($0)" } ?? "")
            let method = field.defaultValue == nil && !field.isOptional ? "require" : "decode"
            var call = "try \(reader).\(method)(\(field.decodedType).self, \(location)\(options))"
            if let defaultValue = field.defaultValue { call += " ?? (\(defaultValue))" }
            lines.append("    \(field.selfMember) = \(call)")
        }
        lines.append("    try self.modelDidDecode()")
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    static func pathsLiteral(_ paths: [[String]]) -> String {
        "[" + paths.map { "[" + $0.map(swiftStringLiteral).joined(separator: ", ") + "]" }.joined(separator: ", ") + "]"
    }

    /// `text` as a Swift string literal, escaped by swift-syntax: quotes and backslashes (through
    /// a raw string's `#`s), and the newlines and control characters a JSON key may hold, which
    /// a plain `"…"` around them would break.
    static func swiftStringLiteral(_ text: String) -> String {
        StringLiteralExprSyntax(content: text).description
    }

    /// Writes each property under its first key; key paths sharing a prefix share one nested
    /// container, opened only when one of its properties has a value.
    static func encodingMethod(_ fields: [ModelField], access: String, hooks: Hooks) -> String {
        let root = KeyTree()
        for field in fields where !field.isIgnored { root.insert(field, path: field.paths[0][...]) }
        var body: [String] = []
        if root.isEmpty {
            body.append("    _ = encoder.container(keyedBy: YYModelCore._ModelKey.self)")
        } else {
            body.append("    var container0 = encoder.container(keyedBy: YYModelCore._ModelKey.self)")
            root.emit(into: &body, container: "container0", depth: 0)
        }
        var lines = ["\(access)func encode(to encoder: any Encoder) throws {"]
        if hooks.didEncode {
            // Encode into a value the hook may edit, then write that.
            lines.append("    var object = try YYModelCore._ModelValueCapture.capture(like: encoder) { encoder in")
            lines += body.map { "    " + $0 }
            lines.append("    }")
            lines.append("    try self.modelDidEncode(&object)")
            lines.append("    try object.encode(to: encoder)")
        } else {
            lines += body
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// What `ModelEncoder` calls when it can write the model straight into its output.
    static func directEncodingMethod(_ fields: [ModelField], access: String) -> String {
        let root = KeyTree()
        for field in fields where !field.isIgnored { root.insert(field, path: field.paths[0][...]) }
        var lines = ["\(access)func _encode(to writer: inout YYModelCore._ModelWriter) throws {", "    writer.beginObject()"]
        root.emitDirect(into: &lines, depth: 0)
        lines.append("    writer.endObject()")
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// Key paths as a tree, in the order their first property was declared.
    final class KeyTree {
        enum Entry {
            case field(ModelField, key: String)
            case group(key: String, KeyTree)
        }
        var entries: [Entry] = []
        var isEmpty: Bool { entries.isEmpty }

        func insert(_ field: ModelField, path: ArraySlice<String>) {
            let key = path.first!
            if path.count == 1 {
                // Two properties written under one key: the later one's value is written, in the
                // earlier one's place (as YYModel's dictionary would hold it), not the key twice.
                if let index = entries.firstIndex(where: { if case .field(_, key) = $0 { true } else { false } }) {
                    entries[index] = .field(field, key: key)
                } else {
                    entries.append(.field(field, key: key))
                }
                return
            }
            for entry in entries {
                if case .group(let groupKey, let tree) = entry, groupKey == key {
                    tree.insert(field, path: path.dropFirst())
                    return
                }
            }
            let tree = KeyTree()
            tree.insert(field, path: path.dropFirst())
            entries.append(.group(key: key, tree))
        }

        var fields: [ModelField] {
            entries.flatMap { entry -> [ModelField] in
                switch entry {
                case .field(let field, _): [field]
                case .group(_, let tree): tree.fields
                }
            }
        }

        func emit(into lines: inout [String], container: String, depth: Int) {
            let indent = String(repeating: "    ", count: depth + 1)
            for entry in entries {
                switch entry {
                case .field(let field, let key):
                    let method = field.isOptional ? "encodeIfPresent" : "encode"
                    lines.append("\(indent)try \(container).\(method)(\(field.selfMember), forKey: \(literal(key)))")
                case .group(let key, let tree):
                    let nested = "container\(depth + 1)"
                    let optional = tree.fields.allSatisfy(\.isOptional)
                    let condition = optional ? tree.fields.map { "\($0.selfMember) != nil" }.joined(separator: " || ") : "true"
                    lines.append("\(indent)if \(condition) {")
                    lines.append(
                        "\(indent)    var \(nested) = \(container).nestedContainer(keyedBy: YYModelCore._ModelKey.self, forKey: \(literal(key)))")
                    tree.emit(into: &lines, container: nested, depth: depth + 1)
                    lines.append("\(indent)}")
                }
            }
        }

        /// The key as Swift source: `YYModelCore._ModelKey("…")`.
        /// The direct writer's version of ``emit(into:container:depth:)``: keys and values in order,
        /// nil optionals left out, groups of only-nil optionals left out whole.
        func emitDirect(into lines: inout [String], depth: Int) {
            let indent = String(repeating: "    ", count: depth + 1)
            for entry in entries {
                switch entry {
                case .field(let field, let key):
                    let name = ModelMacro.swiftStringLiteral(key)
                    if field.isOptional {
                        lines.append("\(indent)if let value = \(field.selfMember) {")
                        lines.append("\(indent)    writer.key(\(name))")
                        lines.append("\(indent)    try writer.value(value)")
                        lines.append("\(indent)}")
                    } else {
                        lines.append("\(indent)writer.key(\(name))")
                        lines.append("\(indent)try writer.value(\(field.selfMember))")
                    }
                case .group(let key, let tree):
                    let optional = tree.fields.allSatisfy(\.isOptional)
                    let condition = optional ? tree.fields.map { "\($0.selfMember) != nil" }.joined(separator: " || ") : "true"
                    lines.append("\(indent)if \(condition) {")
                    lines.append("\(indent)    writer.key(\(ModelMacro.swiftStringLiteral(key)))")
                    lines.append("\(indent)    writer.beginObject()")
                    tree.emitDirect(into: &lines, depth: depth + 1)
                    lines.append("\(indent)    writer.endObject()")
                    lines.append("\(indent)}")
                }
            }
        }

        private func literal(_ key: String) -> String {
            "YYModelCore._ModelKey(\(ModelMacro.swiftStringLiteral(key)))"
        }
    }

    static func accessPrefix(of declaration: some DeclGroupSyntax) -> String {
        for modifier in declaration.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }
}

extension ModelMacro.Kind {
    /// The kind of a declaration `@Model` accepts; reports anything else when `context` is given.
    init?(_ declaration: some DeclGroupSyntax, in context: (any MacroExpansionContext)?) {
        if declaration.is(StructDeclSyntax.self) {
            self = .structure
        } else if let classDecl = declaration.as(ClassDeclSyntax.self) {
            guard classDecl.modifiers.contains(where: { $0.name.tokenKind == .keyword(.final) }) else {
                context?.diagnose(Diagnostic(node: classDecl.name, message: ModelDiagnostic.classNotFinal))
                return nil
            }
            self = .finalClass
        } else {
            context?.diagnose(Diagnostic(node: declaration, message: ModelDiagnostic.notStructOrClass))
            return nil
        }
    }
}

/// `@Key`, `@Ignore`, `@Strict`, `@Lenient`: markers read by `@Model`; on their own they add
/// nothing, but they must sit on a stored property.
public struct FieldAttributeMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self),
            !variable.bindings.contains(where: { $0.accessorBlock.map { if case .getter = $0.accessors { true } else { false } } ?? false })
        else {
            context.diagnose(Diagnostic(node: node, message: ModelDiagnostic.attributeOnNonStoredProperty))
            return []
        }
        return []
    }
}
