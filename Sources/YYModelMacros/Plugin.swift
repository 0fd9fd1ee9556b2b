import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that provides YYModel's macros.
@main
struct YYModelMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ModelMacro.self, FieldAttributeMacro.self]
}
