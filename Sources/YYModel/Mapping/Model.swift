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
/// Properties without `@Key` use their own name. Optional properties are `nil` when absent or
/// null; properties with an initial value take it; others are required (`keyNotFound`). Encoding
/// writes the first key of each property; optionals that are `nil` are left out.
@attached(extension, conformances: ModelCodable, names: named(init(from:)), named(encode(to:)))
@attached(member, names: named(init(from:)))
public macro Model() = #externalMacro(module: "YYModelMacros", type: "ModelMacro")

/// The JSON key, key path (`"ext.desc"`) or keys tried in order (`"id", "ID", "book_id"`) of a
/// property of a ``Model()`` type. Encoding uses the first.
@attached(peer)
public macro Key(_ first: String, _ more: String...) = #externalMacro(module: "YYModelMacros", type: "FieldAttributeMacro")

/// Leaves a property of a ``Model()`` type out of decoding and encoding. It needs an initial value.
@attached(peer)
public macro Ignore() = #externalMacro(module: "YYModelMacros", type: "FieldAttributeMacro")

/// Decodes a property of a ``Model()`` type with exact JSON types, whatever the decoder's setting.
@attached(peer)
public macro Strict() = #externalMacro(module: "YYModelMacros", type: "FieldAttributeMacro")

/// Decodes a property of a ``Model()`` type with YYModel's coercions, whatever the decoder's setting.
@attached(peer)
public macro Lenient() = #externalMacro(module: "YYModelMacros", type: "FieldAttributeMacro")

/// The conformance ``Model()`` adds: a `Codable` type whose mapping was generated.
public protocol ModelCodable: Codable {}
