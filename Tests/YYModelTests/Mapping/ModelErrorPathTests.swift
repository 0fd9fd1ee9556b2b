import Foundation
import Testing
import YYModel

@Model
struct PathItem {
    var id: Int
    var tags: [String]
}

@Model
struct PathOwner {
    var name: String
}

@Model
struct PathOrder {
    var items: [PathItem]
    var grid: [[PathItem]]
    var owner: PathOwner
    var lookup: [String: PathItem]
}

/// `@Model`'s fast path builds no coding path while it succeeds (nested fields and elements get
/// their parent's path); errors still carry the full path, added on their way out.
struct ModelErrorPathTests {
    static let strict: ModelDecoder = {
        var decoder = ModelDecoder()
        decoder.coercion = .strict
        return decoder
    }()

    static let valid = #"{"items": [{"id": 1, "tags": []}], "grid": [[{"id": 2, "tags": ["a"]}]], "owner": {"name": "x"}, "lookup": {}}"#

    /// The coding path of the error decoding `json` throws.
    static func path(_ json: String) -> [String]? {
        do {
            _ = try strict.decode(PathOrder.self, from: json)
            return nil
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            return context.codingPath.map(\.stringValue)
        } catch DecodingError.keyNotFound(let key, let context) {
            return context.codingPath.map(\.stringValue) + ["missing " + key.stringValue]
        } catch {
            return ["unexpected \(error)"]
        }
    }

    @Test func validInputDecodes() throws {
        let order = try Self.strict.decode(PathOrder.self, from: Self.valid)
        #expect(order.grid[0][0].tags == ["a"])
    }

    @Test func errorsInNestedModelsAndArraysNameEveryStep() {
        func replacing(_ old: String, _ new: String) -> String { Self.valid.replacingOccurrences(of: old, with: new) }
        #expect(Self.path(replacing(#""id": 1"#, #""id": "one""#)) == ["items", "Index 0", "id"])
        #expect(Self.path(replacing(#""tags": ["a"]"#, #""tags": ["a", 5]"#)) == ["grid", "Index 0", "Index 0", "tags", "Index 1"])
        #expect(Self.path(replacing(#""name": "x""#, #""nom": "x""#)) == ["owner", "missing name"])
        #expect(Self.path(replacing(#""lookup": {}"#, #""lookup": {"k": {"id": true, "tags": []}}"#)) == ["lookup", "k", "id"])
        #expect(
            Self.path(replacing(#"[[{"id": 2"#, #"[[], [{"id": 2"#).replacingOccurrences(of: #""tags": ["a"]"#, with: #""tags": "a""#))
                == ["grid", "Index 1", "Index 0", "tags"])
    }
}
