import SwiftSyntax

/// The source text `@Model` generates: the decoding initializers, the encoding methods and the
/// literals they use.
extension ModelMacro {
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
}
