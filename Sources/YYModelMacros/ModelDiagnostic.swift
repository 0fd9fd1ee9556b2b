import SwiftDiagnostics

/// The errors `@Model` and its field attributes report at compile time.
enum ModelDiagnostic: String, DiagnosticMessage {
    case notStructOrClass
    case classNotFinal
    case missingTypeAnnotation
    case ignoredWithoutValue
    case emptyKey
    case emptyKeyPathComponent
    case keyNotStringLiteral
    case strictAndLenient
    case attributeOnNonStoredProperty
    case unknownPropertyInList
    case listNotStringLiterals
    case dateFormatWithoutStrategy
    case coercionNotStrictOrLenient

    var message: String {
        switch self {
        case .notStructOrClass: "@Model applies to a struct or a final class"
        case .classNotFinal: "@Model classes must be final (subclasses would not be decoded as themselves)"
        case .missingTypeAnnotation: "@Model needs a type annotation on every mapped property"
        case .ignoredWithoutValue: "@Ignore needs an initial value (or an optional type) to take when decoding"
        case .emptyKey: "@Key needs non-empty keys (@Key(verbatim: \"\") names the empty key)"
        case .emptyKeyPathComponent: "a key path must not have empty components (\"a..b\", \".a\", \"a.\"; @Key(verbatim:) names a key with dots)"
        case .keyNotStringLiteral: "@Key takes string literals"
        case .strictAndLenient: "a property cannot be both @Strict and @Lenient"
        case .attributeOnNonStoredProperty: "this attribute applies to stored properties of a @Model type"
        case .unknownPropertyInList: "allow: and ignore: name stored properties of this type"
        case .listNotStringLiterals: "allow: and ignore: take arrays of string literals"
        case .dateFormatWithoutStrategy: "@DateFormat takes a date decoding strategy"
        case .coercionNotStrictOrLenient: "coercion: takes .strict or .lenient"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "YYModel", id: rawValue) }
    var severity: DiagnosticSeverity { .error }
}
