/// The tree of JSON key paths the generated encoders walk: properties mapped under one nested
/// key are written inside one nested container.
extension ModelMacro {
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

        /// The key as Swift source: `YYModelCore._ModelKey("…")`.
        private func literal(_ key: String) -> String {
            "YYModelCore._ModelKey(\(ModelMacro.swiftStringLiteral(key)))"
        }
    }
}
