import Foundation
import Testing
import YYModel

protocol Shape {
    var area: Double { get }
}

@Model struct Circle: Shape, Equatable {
    var radius: Double
    var area: Double { .pi * radius * radius }
}

@Model struct Square: Shape, Equatable {
    var side: Double
    var area: Double { side * side }
}

struct NotAShape: Decodable {}

enum ShapeKind: ModelTypeChooser {
    typealias Base = any Shape
    static func modelType(for object: JSONValue) throws -> any Decodable.Type {
        switch object["type"] {
        case "circle": Circle.self
        case "square": Square.self
        case "broken": NotAShape.self
        default: throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown shape \(object["type"] ?? nil)"))
        }
    }
}

@Model struct Drawing {
    var title: String
    var shapes: [Polymorphic<ShapeKind>]
    var highlight: Polymorphic<ShapeKind>?
}

/// YYModel's `modelCustomClassForDictionary:`: the JSON object picks the concrete type.
@Suite struct PolymorphicTests {
    static let json = #"""
        {"title": "t", "shapes": [{"type": "circle", "radius": 1}, {"type": "square", "side": "2"}],
         "highlight": {"type": "square", "side": 3}}
        """#

    @Test func choosesTheTypeFromTheObject() throws {
        for decode in [
            { try ModelDecoder().decode(Drawing.self, from: Self.json) },
            { try JSONDecoder().decode(Drawing.self, from: Data(Self.json.replacingOccurrences(of: "\"2\"", with: "2").utf8)) },
        ] {
            let drawing = try decode()
            try #require(drawing.shapes.count == 2)
            #expect(drawing.shapes[0].value as? Circle == Circle(radius: 1))
            #expect(drawing.shapes[1].value as? Square == Square(side: 2))
            #expect(drawing.highlight?.value.area == 9)
        }
    }

    @Test func topLevelAndRejections() throws {
        let shape = try ModelDecoder().decode(Polymorphic<ShapeKind>.self, from: #"{"type": "circle", "radius": 2}"#)
        #expect(shape.value is Circle)
        #expect(throws: DecodingError.self) { try ModelDecoder().decode(Polymorphic<ShapeKind>.self, from: #"{"type": "hexagon"}"#) }
        #expect(throws: DecodingError.self) { try ModelDecoder().decode(Polymorphic<ShapeKind>.self, from: #"{"type": "broken"}"#) }
    }

    @Test func encodesTheConcreteValue() throws {
        var encoder = ModelEncoder()
        encoder.sortedKeys = true
        let drawing = try ModelDecoder().decode(Drawing.self, from: Self.json)
        #expect(try encoder.encodeToString(drawing) == #"{"highlight":{"side":3.0},"shapes":[{"radius":1.0},{"side":2.0}],"title":"t"}"#)
    }
}
