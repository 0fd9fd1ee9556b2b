import SwiftDiagnostics
public import SwiftSyntax
public import SwiftSyntaxMacros

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
