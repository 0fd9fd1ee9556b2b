// `@Model` and its field attributes. Everything the generated code calls at run time lives in
// YYModelCore, re-exported here so that `import YYModel` is all a model file needs; code that
// only parses, writes or decodes JSON can depend on YYModelCore and never build swift-syntax.
@_exported public import YYModelCore

/// Generates YYModel-style JSON mapping for a struct or a final class: `Codable` conformance whose
/// keys, key paths, fallback keys and per-field coercion come from attributes.
///
/// ```swift
/// @Model
/// struct Book {
///     @Key("book_id", "id", "ID") var id: Int          // fallback keys: the first present wins
///     @Key("ext.desc") var summary: String?           // a key path; rebuilt as nested objects on encode
///     var pages: Int = 0                               // missing → the initial value
///     @Strict var price: Double                        // no string → number coercion for this field
///     @Ignore var cache: [String] = []                 // neither read nor written
/// }
/// let book = try ModelDecoder().decode(Book.self, from: data)
/// ```
///
/// `allow:` maps only the named properties and `ignore:` leaves the named ones out (YYModel's
/// white and black lists); properties left out need an initial value or an optional type.
/// `coercion: .strict` (or `.lenient`) decodes the type's properties that carry neither `@Strict`
/// nor `@Lenient` as if they carried that one, whatever the decoder's setting.
///
/// Hooks (YYModel's `modelCustomWillTransformFromDictionary:` and friends): declare
/// `static func modelWillDecode(_ object: JSONValue) throws -> JSONValue` to replace or reject the
/// input object, `func modelDidDecode() throws` (`mutating` in structs) to check or finish the
/// model, `func modelDidEncode(_ object: inout JSONValue) throws` to edit or reject the output.
/// Throwing rejects.
///
/// Properties without `@Key` use their own name. Optional properties are `nil` when absent or
/// null; properties with an initial value take it; others are required (`keyNotFound`). Encoding
/// writes the first key of each property; optionals that are `nil` are left out.
@attached(extension, conformances: ModelCodable, names: named(init(from:)), named(init(_tape:)), named(encode(to:)), named(_encode(to:)))
@attached(member, names: named(init(from:)), named(init(_tape:)))
public macro Model(allow: [String] = [], ignore: [String] = [], coercion: ModelDecoder.Coercion? = nil) =
    #externalMacro(module: "YYModelMacros", type: "ModelMacro")

/// The JSON key, key path (`"ext.desc"`) or keys tried in order (`"id", "ID", "book_id"`) of a
/// property of a ``Model(allow:ignore:coercion:)`` type. Encoding uses the first.
@attached(peer)
public macro Key(_ first: String, _ more: String...) = #externalMacro(module: "YYModelMacros", type: "FieldAttributeMacro")

/// The JSON key of a property of a ``Model(allow:ignore:coercion:)`` type, taken as written: a
/// dot in it is part of the key, not a key path (`@Key(verbatim: "a.b")` reads `{"a.b": 1}`),
/// and it may be empty (`@Key(verbatim: "")` reads `{"": 1}`).
@attached(peer)
public macro Key(verbatim key: String) = #externalMacro(module: "YYModelMacros", type: "FieldAttributeMacro")

/// Leaves a property of a ``Model(allow:ignore:coercion:)`` type out of decoding and encoding. It needs an initial value.
@attached(peer)
public macro Ignore() = #externalMacro(module: "YYModelMacros", type: "FieldAttributeMacro")

/// Decodes a property of a ``Model(allow:ignore:coercion:)`` type with exact JSON types, whatever the decoder's setting.
@attached(peer)
public macro Strict() = #externalMacro(module: "YYModelMacros", type: "FieldAttributeMacro")

/// Decodes a property of a ``Model(allow:ignore:coercion:)`` type with YYModel's coercions, whatever the decoder's setting.
@attached(peer)
public macro Lenient() = #externalMacro(module: "YYModelMacros", type: "FieldAttributeMacro")

/// Reads a `Date` property of a ``Model(allow:ignore:coercion:)`` type with `strategy`, whatever the
/// decoder's date strategy (decoding only; encoding follows the encoder).
@attached(peer)
public macro DateFormat(_ strategy: ModelDecoder.DateDecodingStrategy) = #externalMacro(module: "YYModelMacros", type: "FieldAttributeMacro")
