import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// One stored property of a `@Model` type, as the generated code needs it.
struct ModelField {
    var name: String
    /// The type to decode: the wrapped type for optionals.
    var decodedType: String
    var isOptional: Bool
    var defaultValue: ExprSyntax?
    /// Each path is a key, or a key path split at `.`; the first is written when encoding.
    var paths: [[String]]
    var isIgnored: Bool
    /// `.strict` or `.lenient` when the property (or its type, through `@Model(coercion:)`)
    /// overrides the decoder's coercion.
    var coercion: String?
    /// The `@DateFormat` strategy expression, as source.
    var dateFormat: String?

    /// `self.name` as source. After a dot, Swift takes most keywords as member names, but not
    /// these four (SE-0071), which need backticks: a JSON sample with a key "self" makes one.
    var selfMember: String {
        ["self", "init", "Type", "Protocol"].contains(name) ? "self.`\(name)`" : "self.\(name)"
    }

    /// The stored properties of `declaration`, or `nil` when there is a problem (reported to
    /// `context` when one is given).
    static func fields(of declaration: some DeclGroupSyntax, in context: (any MacroExpansionContext)?) -> [ModelField]? {
        var fields: [ModelField] = []
        var failed = false
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            if variable.modifiers.contains(where: { ["static", "class", "lazy"].contains($0.name.text) }) { continue }
            let attributes = FieldAttributes(variable.attributes, in: context)
            guard let attributes else { failed = true; continue }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            for binding in variable.bindings {
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                if let accessors = binding.accessorBlock, isComputed(accessors) { continue }
                let name = pattern.identifier.trimmedDescription.trimmingBackticks
                // A `let` with an initial value cannot be assigned in an initializer: Codable
                // synthesis skips it too.
                if isLet && binding.initializer != nil { continue }
                guard let annotation = binding.typeAnnotation?.type else {
                    context?.diagnose(Diagnostic(node: binding, message: ModelDiagnostic.missingTypeAnnotation))
                    failed = true
                    continue
                }
                let (decodedType, isOptional) = unwrapOptional(annotation)
                if attributes.isIgnored && binding.initializer == nil && !isOptional {
                    context?.diagnose(Diagnostic(node: binding, message: ModelDiagnostic.ignoredWithoutValue))
                    failed = true
                    continue
                }
                fields.append(
                    ModelField(
                        name: name, decodedType: decodedType, isOptional: isOptional,
                        defaultValue: binding.initializer?.value.trimmed,
                        paths: attributes.paths ?? [[name]], isIgnored: attributes.isIgnored, coercion: attributes.coercion,
                        dateFormat: attributes.dateFormat))
            }
        }
        if failed { return nil }
        return apply(ModelArguments(declaration, in: context), to: fields, in: context)
    }

    /// Marks the properties that `allow:` leaves out or `ignore:` names as ignored, and gives the
    /// type's `coercion:` to the properties without their own.
    private static func apply(_ lists: ModelArguments?, to fields: [ModelField], in context: (any MacroExpansionContext)?) -> [ModelField]? {
        guard let lists else { return nil }
        let names = Set(fields.map(\.name))
        for (name, node) in lists.allow + lists.ignore where !names.contains(name) {
            context?.diagnose(Diagnostic(node: node, message: ModelDiagnostic.unknownPropertyInList))
            return nil
        }
        let allowed = Set(lists.allow.map(\.0))
        let ignored = Set(lists.ignore.map(\.0))
        var result = fields
        for index in result.indices {
            if result[index].coercion == nil { result[index].coercion = lists.coercion }
            let name = result[index].name
            guard (!allowed.isEmpty && !allowed.contains(name)) || ignored.contains(name) else { continue }
            if result[index].defaultValue == nil && !result[index].isOptional {
                let node = (lists.ignore.first { $0.0 == name } ?? lists.allow.first)?.1
                if let node { context?.diagnose(Diagnostic(node: node, message: ModelDiagnostic.ignoredWithoutValue)) }
                return nil
            }
            result[index].isIgnored = true
        }
        return result
    }

    private static func isComputed(_ accessors: AccessorBlockSyntax) -> Bool {
        switch accessors.accessors {
        case .getter: return true
        case .accessors(let list):
            return list.contains { ["get", "set", "_read", "_modify"].contains($0.accessorSpecifier.text) }
        }
    }

    /// `T?`, `T!` and `Optional<T>` → (`T`, true); anything else → (itself, false).
    private static func unwrapOptional(_ type: TypeSyntax) -> (String, Bool) {
        if let optional = type.as(OptionalTypeSyntax.self) { return (optional.wrappedType.trimmedDescription, true) }
        if let implicit = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return (implicit.wrappedType.trimmedDescription, true) }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
            let argument = identifier.genericArgumentClause?.arguments.first
        {
            return (argument.argument.trimmedDescription, true)
        }
        return (type.trimmedDescription, false)
    }
}

/// The `allow:` and `ignore:` arguments of `@Model`, with the nodes to point diagnostics at.
/// The arguments of `@Model`: the `allow:` and `ignore:` lists and the type's `coercion:`.
struct ModelArguments {
    var allow: [(String, Syntax)] = []
    var ignore: [(String, Syntax)] = []
    /// `.strict` or `.lenient` when the type overrides the decoder's coercion.
    var coercion: String?

    /// Reads the arguments of the `@Model` attribute of `declaration`, or reports a problem.
    init?(_ declaration: some DeclGroupSyntax, in context: (any MacroExpansionContext)?) {
        let attribute = declaration.attributes.lazy.compactMap { $0.as(AttributeSyntax.self) }
            .first { ["Model", "YYModel.Model"].contains($0.attributeName.trimmedDescription) }
        guard let attribute, case .argumentList(let arguments) = attribute.arguments else { return }
        for argument in arguments {
            if argument.label?.text == "coercion" {
                if argument.expression.is(NilLiteralExprSyntax.self) { continue }
                let name = argument.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
                guard let name, ["strict", "lenient"].contains(name) else {
                    context?.diagnose(Diagnostic(node: argument.expression, message: ModelDiagnostic.coercionNotStrictOrLenient))
                    return nil
                }
                coercion = "." + name
                continue
            }
            guard let array = argument.expression.as(ArrayExprSyntax.self) else {
                context?.diagnose(Diagnostic(node: argument, message: ModelDiagnostic.listNotStringLiterals))
                return nil
            }
            var names: [(String, Syntax)] = []
            for element in array.elements {
                guard let name = element.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue else {
                    context?.diagnose(Diagnostic(node: element, message: ModelDiagnostic.listNotStringLiterals))
                    return nil
                }
                names.append((name, Syntax(element)))
            }
            if argument.label?.text == "allow" { allow = names } else { ignore = names }
        }
    }
}

/// `@Key`, `@Ignore`, `@Strict` and `@Lenient` on one property.
struct FieldAttributes {
    var paths: [[String]]?
    var isIgnored = false
    var coercion: String?
    var dateFormat: String?

    /// Reads the attributes, or reports a problem and returns `nil`.
    init?(_ list: AttributeListSyntax, in context: (any MacroExpansionContext)?) {
        var strict = false
        var lenient = false
        for element in list {
            guard let attribute = element.as(AttributeSyntax.self) else { continue }
            switch attribute.attributeName.trimmedDescription {
            case "Key", "YYModel.Key":
                guard let paths = Self.paths(of: attribute, in: context) else { return nil }
                self.paths = paths
            case "Ignore", "YYModel.Ignore": isIgnored = true
            case "Strict", "YYModel.Strict": strict = true
            case "Lenient", "YYModel.Lenient": lenient = true
            case "DateFormat", "YYModel.DateFormat":
                guard case .argumentList(let arguments) = attribute.arguments, let first = arguments.first else {
                    context?.diagnose(Diagnostic(node: attribute, message: ModelDiagnostic.dateFormatWithoutStrategy))
                    return nil
                }
                dateFormat = first.expression.trimmedDescription
            default: continue
            }
        }
        if strict && lenient {
            context?.diagnose(Diagnostic(node: list, message: ModelDiagnostic.strictAndLenient))
            return nil
        }
        coercion = strict ? ".strict" : lenient ? ".lenient" : nil
    }

    private static func paths(of attribute: AttributeSyntax, in context: (any MacroExpansionContext)?) -> [[String]]? {
        guard case .argumentList(let arguments) = attribute.arguments else {
            context?.diagnose(Diagnostic(node: attribute, message: ModelDiagnostic.emptyKey))
            return nil
        }
        var paths: [[String]] = []
        for argument in arguments {
            // The literal's value, escapes applied (`"a\\"b"` is `a"b`); nil for interpolations.
            guard let key = argument.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue else {
                context?.diagnose(Diagnostic(node: argument, message: ModelDiagnostic.keyNotStringLiteral))
                return nil
            }
            // `@Key(verbatim:)` takes one key as written: JSON allows any string as a key,
            // dots and the empty string included, which a key path cannot name.
            if argument.label?.text == "verbatim" { return [[key]] }
            if key.isEmpty {
                context?.diagnose(Diagnostic(node: argument, message: ModelDiagnostic.emptyKey))
                return nil
            }
            let components = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if components.contains(where: \.isEmpty) {
                context?.diagnose(Diagnostic(node: argument, message: ModelDiagnostic.emptyKeyPathComponent))
                return nil
            }
            paths.append(components)
        }
        return paths
    }
}
