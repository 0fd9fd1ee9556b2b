import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing
import YYModelMacros

/// swift-syntax's `assertMacroExpansion`, reporting through Swift Testing at the caller's line.
func expectExpansion(
    _ original: String, expandedSource: String, macroSpecs: [String: MacroSpec],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    SwiftSyntaxMacrosGenericTestSupport.assertMacroExpansion(
        original, expandedSource: expandedSource, macroSpecs: macroSpecs,
        failureHandler: { failure in Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation) })
}

/// What `@Model` expands to, and what it rejects.
@Suite struct ModelMacroTests {
    /// As the compiler sees them: `@Model` adds the `ModelCodable` conformance.
    let macros: [String: MacroSpec] = [
        "Model": MacroSpec(type: ModelMacro.self, conformances: ["ModelCodable"]),
        "Key": MacroSpec(type: FieldAttributeMacro.self), "Ignore": MacroSpec(type: FieldAttributeMacro.self),
        "Strict": MacroSpec(type: FieldAttributeMacro.self), "Lenient": MacroSpec(type: FieldAttributeMacro.self),
    ]

    @Test func structGetsDecodingAndEncodingInAnExtension() {
        expectExpansion(
            """
            @Model
            public struct Book {
                @Key("book_id", "id") var id: Int
                @Key("ext.desc") var summary: String?
                @Key("ext.pages") var pages: Int = 0
                @Strict var price: Double
                @Ignore var cache: [String] = []
                var computed: Int { id * 2 }
                static var shared = 0
                let fixed = 1
            }
            """,
            expandedSource: """
                public struct Book {
                    var id: Int
                    var summary: String?
                    var pages: Int = 0
                    var price: Double
                    var cache: [String] = []
                    var computed: Int { id * 2 }
                    static var shared = 0
                    let fixed = 1
                }

                extension Book: YYModelCore.ModelCodable {
                    public init(from decoder: any Decoder) throws {
                        let reader = try YYModelCore._ModelFieldReader(decoder)
                        self.id = try reader.require(Int.self, paths: [["book_id"], ["id"]])
                        self.summary = try reader.decode(String.self, paths: [["ext", "desc"]])
                        self.pages = try reader.decode(Int.self, paths: [["ext", "pages"]]) ?? (0)
                        self.price = try reader.require(Double.self, paths: [["price"]], coercion: .strict)
                        try self.modelDidDecode()
                    }

                    public init(_tape object: YYModelCore._TapeObject) throws {
                        var object = object
                        self.id = try object.require(Int.self, paths: [["book_id"], ["id"]])
                        self.summary = try object.decode(String.self, paths: [["ext", "desc"]])
                        self.pages = try object.decode(Int.self, paths: [["ext", "pages"]]) ?? (0)
                        self.price = try object.require(Double.self, key: "price", coercion: .strict)
                        try self.modelDidDecode()
                    }

                    public func encode(to encoder: any Encoder) throws {
                        var container0 = encoder.container(keyedBy: YYModelCore._ModelKey.self)
                        try container0.encode(self.id, forKey: YYModelCore._ModelKey("book_id"))
                        if true {
                            var container1 = container0.nestedContainer(keyedBy: YYModelCore._ModelKey.self, forKey: YYModelCore._ModelKey("ext"))
                            try container1.encodeIfPresent(self.summary, forKey: YYModelCore._ModelKey("desc"))
                            try container1.encode(self.pages, forKey: YYModelCore._ModelKey("pages"))
                        }
                        try container0.encode(self.price, forKey: YYModelCore._ModelKey("price"))
                    }

                    public func _encode(to writer: inout YYModelCore._ModelWriter) throws {
                        writer.beginObject()
                        writer.key("book_id")
                        try writer.value(self.id)
                        if true {
                            writer.key("ext")
                            writer.beginObject()
                            if let value = self.summary {
                                writer.key("desc")
                                try writer.value(value)
                            }
                            writer.key("pages")
                            try writer.value(self.pages)
                            writer.endObject()
                        }
                        writer.key("price")
                        try writer.value(self.price)
                        writer.endObject()
                    }
                }
                """,
            macroSpecs: macros
        )
    }

    @Test func finalClassGetsItsInitializerInTheBody() {
        expectExpansion(
            """
            @Model
            final class User {
                var name: String?
            }
            """,
            expandedSource: """
                final class User {
                    var name: String?

                    init(from decoder: any Decoder) throws {
                        let reader = try YYModelCore._ModelFieldReader(decoder)
                        self.name = try reader.decode(String.self, paths: [["name"]])
                        try self.modelDidDecode()
                    }

                    init(_tape object: YYModelCore._TapeObject) throws {
                        var object = object
                        self.name = try object.decode(String.self, key: "name")
                        try self.modelDidDecode()
                    }
                }

                extension User: YYModelCore.ModelCodable {
                    func encode(to encoder: any Encoder) throws {
                        var container0 = encoder.container(keyedBy: YYModelCore._ModelKey.self)
                        try container0.encodeIfPresent(self.name, forKey: YYModelCore._ModelKey("name"))
                    }

                    func _encode(to writer: inout YYModelCore._ModelWriter) throws {
                        writer.beginObject()
                        if let value = self.name {
                            writer.key("name")
                            try writer.value(value)
                        }
                        writer.endObject()
                    }
                }
                """,
            macroSpecs: macros
        )
    }

    @Test func optionalOnlyGroupsAreWrittenWhenOneHasAValue() {
        expectExpansion(
            """
            @Model
            struct A {
                @Key("a.b") var b: Int?
                @Key("a.c") var c: Optional<String>
            }
            """,
            expandedSource: """
                struct A {
                    var b: Int?
                    var c: Optional<String>
                }

                extension A: YYModelCore.ModelCodable {
                    init(from decoder: any Decoder) throws {
                        let reader = try YYModelCore._ModelFieldReader(decoder)
                        self.b = try reader.decode(Int.self, paths: [["a", "b"]])
                        self.c = try reader.decode(String.self, paths: [["a", "c"]])
                        try self.modelDidDecode()
                    }

                    init(_tape object: YYModelCore._TapeObject) throws {
                        var object = object
                        self.b = try object.decode(Int.self, paths: [["a", "b"]])
                        self.c = try object.decode(String.self, paths: [["a", "c"]])
                        try self.modelDidDecode()
                    }

                    func encode(to encoder: any Encoder) throws {
                        var container0 = encoder.container(keyedBy: YYModelCore._ModelKey.self)
                        if self.b != nil || self.c != nil {
                            var container1 = container0.nestedContainer(keyedBy: YYModelCore._ModelKey.self, forKey: YYModelCore._ModelKey("a"))
                            try container1.encodeIfPresent(self.b, forKey: YYModelCore._ModelKey("b"))
                            try container1.encodeIfPresent(self.c, forKey: YYModelCore._ModelKey("c"))
                        }
                    }

                    func _encode(to writer: inout YYModelCore._ModelWriter) throws {
                        writer.beginObject()
                        if self.b != nil || self.c != nil {
                            writer.key("a")
                            writer.beginObject()
                            if let value = self.b {
                                writer.key("b")
                                try writer.value(value)
                            }
                            if let value = self.c {
                                writer.key("c")
                                try writer.value(value)
                            }
                            writer.endObject()
                        }
                        writer.endObject()
                    }
                }
                """,
            macroSpecs: macros
        )
    }

    @Test func hooksTakeThePathThroughJSONValue() {
        expectExpansion(
            """
            @Model(ignore: ["b"])
            struct H {
                var a: Int
                var b: Int = 0
                static func modelWillDecode(_ object: JSONValue) throws -> JSONValue { object }
                func modelDidEncode(_ object: inout JSONValue) throws {}
            }
            """,
            expandedSource: """
                struct H {
                    var a: Int
                    var b: Int = 0
                    static func modelWillDecode(_ object: JSONValue) throws -> JSONValue { object }
                    func modelDidEncode(_ object: inout JSONValue) throws {}
                }

                extension H: YYModelCore.ModelCodable {
                    init(from decoder: any Decoder) throws {
                        let reader = try YYModelCore._ModelFieldReader(Self.modelWillDecode(YYModelCore.JSONValue(from: decoder)), like: decoder)
                        self.a = try reader.require(Int.self, paths: [["a"]])
                        try self.modelDidDecode()
                    }

                    init(_tape object: YYModelCore._TapeObject) throws {
                        try self.init(from: object.decoder)
                    }

                    func encode(to encoder: any Encoder) throws {
                        var object = try YYModelCore._ModelValueCapture.capture(like: encoder) { encoder in
                            var container0 = encoder.container(keyedBy: YYModelCore._ModelKey.self)
                            try container0.encode(self.a, forKey: YYModelCore._ModelKey("a"))
                        }
                        try self.modelDidEncode(&object)
                        try object.encode(to: encoder)
                    }
                }
                """,
            macroSpecs: macros
        )
    }

    @Test func keysAreTheLiteralsValuesWrittenBackAsValidLiterals() {
        // A key's quote, backslash or newline (JSON keys may hold any of them) must come out as a
        // literal that compiles: swift-syntax picks a raw string where it needs one.
        expectExpansion(
            #"""
            @Model
            struct Q {
                @Key("j\"k") var quoted: String
                @Key("line\nbreak") var broken: String
            }
            """#,
            expandedSource: #"""
                struct Q {
                    var quoted: String
                    var broken: String
                }

                extension Q: YYModelCore.ModelCodable {
                    init(from decoder: any Decoder) throws {
                        let reader = try YYModelCore._ModelFieldReader(decoder)
                        self.quoted = try reader.require(String.self, paths: [[#"j"k"#]])
                        self.broken = try reader.require(String.self, paths: [["line\nbreak"]])
                        try self.modelDidDecode()
                    }

                    init(_tape object: YYModelCore._TapeObject) throws {
                        var object = object
                        self.quoted = try object.require(String.self, key: #"j"k"#)
                        self.broken = try object.require(String.self, key: "line\nbreak")
                        try self.modelDidDecode()
                    }

                    func encode(to encoder: any Encoder) throws {
                        var container0 = encoder.container(keyedBy: YYModelCore._ModelKey.self)
                        try container0.encode(self.quoted, forKey: YYModelCore._ModelKey(#"j"k"#))
                        try container0.encode(self.broken, forKey: YYModelCore._ModelKey("line\nbreak"))
                    }

                    func _encode(to writer: inout YYModelCore._ModelWriter) throws {
                        writer.beginObject()
                        writer.key(#"j"k"#)
                        try writer.value(self.quoted)
                        writer.key("line\nbreak")
                        try writer.value(self.broken)
                        writer.endObject()
                    }
                }
                """#,
            macroSpecs: macros
        )
    }

    @Test func aVerbatimKeyIsOneKeyWithItsDotsAndMayBeEmpty() {
        expectExpansion(
            #"""
            @Model
            struct V {
                @Key(verbatim: "a.b") var dotted: Int
                @Key(verbatim: "") var empty: Int
            }
            """#,
            expandedSource: #"""
                struct V {
                    var dotted: Int
                    var empty: Int
                }

                extension V: YYModelCore.ModelCodable {
                    init(from decoder: any Decoder) throws {
                        let reader = try YYModelCore._ModelFieldReader(decoder)
                        self.dotted = try reader.require(Int.self, paths: [["a.b"]])
                        self.empty = try reader.require(Int.self, paths: [[""]])
                        try self.modelDidDecode()
                    }

                    init(_tape object: YYModelCore._TapeObject) throws {
                        var object = object
                        self.dotted = try object.require(Int.self, key: "a.b")
                        self.empty = try object.require(Int.self, key: "")
                        try self.modelDidDecode()
                    }

                    func encode(to encoder: any Encoder) throws {
                        var container0 = encoder.container(keyedBy: YYModelCore._ModelKey.self)
                        try container0.encode(self.dotted, forKey: YYModelCore._ModelKey("a.b"))
                        try container0.encode(self.empty, forKey: YYModelCore._ModelKey(""))
                    }

                    func _encode(to writer: inout YYModelCore._ModelWriter) throws {
                        writer.beginObject()
                        writer.key("a.b")
                        try writer.value(self.dotted)
                        writer.key("")
                        try writer.value(self.empty)
                        writer.endObject()
                    }
                }
                """#,
            macroSpecs: macros
        )
    }

    @Test func typeCoercionGoesToPropertiesWithoutTheirOwn() {
        expectExpansion(
            #"""
            @Model(coercion: .strict)
            struct R {
                var a: Int
                @Lenient var b: Int
            }
            """#,
            expandedSource: #"""
                struct R {
                    var a: Int
                    var b: Int
                }

                extension R: YYModelCore.ModelCodable {
                    init(from decoder: any Decoder) throws {
                        let reader = try YYModelCore._ModelFieldReader(decoder)
                        self.a = try reader.require(Int.self, paths: [["a"]], coercion: .strict)
                        self.b = try reader.require(Int.self, paths: [["b"]], coercion: .lenient)
                        try self.modelDidDecode()
                    }

                    init(_tape object: YYModelCore._TapeObject) throws {
                        var object = object
                        self.a = try object.require(Int.self, key: "a", coercion: .strict)
                        self.b = try object.require(Int.self, key: "b", coercion: .lenient)
                        try self.modelDidDecode()
                    }

                    func encode(to encoder: any Encoder) throws {
                        var container0 = encoder.container(keyedBy: YYModelCore._ModelKey.self)
                        try container0.encode(self.a, forKey: YYModelCore._ModelKey("a"))
                        try container0.encode(self.b, forKey: YYModelCore._ModelKey("b"))
                    }

                    func _encode(to writer: inout YYModelCore._ModelWriter) throws {
                        writer.beginObject()
                        writer.key("a")
                        try writer.value(self.a)
                        writer.key("b")
                        try writer.value(self.b)
                        writer.endObject()
                    }
                }
                """#,
            macroSpecs: macros
        )
    }

    @Test func misuseIsDiagnosed() {
        let cases: [(String, String)] = [
            ("@Model enum E { case a }", "@Model applies to a struct or a final class"),
            ("@Model class C { var a: Int = 0 }", "@Model classes must be final (subclasses would not be decoded as themselves)"),
            ("@Model struct S { var a = 0 }", "@Model needs a type annotation on every mapped property"),
            ("@Model struct S { @Ignore var a: Int }", "@Ignore needs an initial value (or an optional type) to take when decoding"),
            ("@Model struct S { @Key(\"\") var a: Int }", "@Key needs non-empty keys (@Key(verbatim: \"\") names the empty key)"),
            (
                "@Model struct S { @Key(\"a..b\") var a: Int }",
                "a key path must not have empty components (\"a..b\", \".a\", \"a.\"; @Key(verbatim:) names a key with dots)"
            ),
            ("@Model struct S { @Strict @Lenient var a: Int }", "a property cannot be both @Strict and @Lenient"),
            ("@Model(ignore: [\"b\"]) struct S { var a: Int }", "allow: and ignore: name stored properties of this type"),
            (
                "@Model(allow: [\"a\"]) struct S { var a: Int; var b: Int }",
                "@Ignore needs an initial value (or an optional type) to take when decoding"
            ),
            ("@Model(allow: names) struct S { var a: Int }", "allow: and ignore: take arrays of string literals"),
            ("@Model(coercion: mode) struct S { var a: Int }", "coercion: takes .strict or .lenient"),
        ]
        for (source, message) in cases {
            let file = Parser.parse(source: source)
            let context = BasicMacroExpansionContext(sourceFiles: [file: .init(moduleName: "Test", fullFilePath: "test.swift")])
            _ = file.expand(macroSpecs: macros, contextGenerator: { _ in context })
            let messages = context.diagnostics.map(\.message)
            #expect(messages.contains(message), "\(source): \(messages)")
        }
    }
}
