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
