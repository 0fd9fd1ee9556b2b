import Foundation
import Testing
import YYModel

struct HookRejection: Error, Equatable {
    let reason: String
}

/// YYModel's transform hooks: replace or reject the input, check the result, edit or reject the output.
@Model
struct HookedOrder: Equatable {
    var id: Int
    var total: Double
    var currency: String = "EUR"

    /// Accepts the legacy shape `{"order": {...}}` and rejects test orders.
    static func modelWillDecode(_ object: JSONValue) throws -> JSONValue {
        if object["test"] == true { throw HookRejection(reason: "test order") }
        return object["order"] ?? object
    }

    func modelDidDecode() throws {
        if total < 0 { throw HookRejection(reason: "negative total") }
    }

    func modelDidEncode(_ object: inout JSONValue) throws {
        if case .object(var members) = object {
            members["version"] = 2
            object = .object(members)
        }
    }
}

@Model(allow: ["id", "name"])
struct AllowListed: Equatable {
    var id: Int
    var name: String
    var secret: String = "s"
    var note: String?
}

@Model(ignore: ["cache", "draft"])
struct IgnoreListed: Equatable {
    var id: Int
    var cache: [Int] = []
    var draft: Bool?
}

@Suite struct ModelHooksTests {
    let decoder = ModelDecoder()

    @Test func willDecodeReplacesOrRejectsTheInput() throws {
        #expect(try decoder.decode(HookedOrder.self, from: #"{"order": {"id": 1, "total": 9.5}}"#) == HookedOrder(id: 1, total: 9.5))
        #expect(try decoder.decode(HookedOrder.self, from: #"{"id": 2, "total": "3"}"#).total == 3)  // the decoder's leniency still applies
        #expect(throws: HookRejection(reason: "test order")) { try decoder.decode(HookedOrder.self, from: #"{"id": 3, "total": 1, "test": true}"#) }
    }

    @Test func didDecodeRejectsTheModel() {
        #expect(throws: HookRejection(reason: "negative total")) { try decoder.decode(HookedOrder.self, from: #"{"id": 1, "total": -1}"#) }
        // YYModel's array helper skips rejected models.
        let orders = try? decoder.decodeArray(of: HookedOrder.self, from: Array(#"[{"id": 1, "total": 1}, {"id": 2, "total": -1}]"#.utf8))
        #expect(orders?.map(\.id) == [1])
    }

    @Test func didEncodeEditsTheOutput() throws {
        var encoder = ModelEncoder()
        encoder.sortedKeys = true
        #expect(try encoder.encodeToString(HookedOrder(id: 1, total: 2)) == #"{"currency":"EUR","id":1,"total":2.0,"version":2}"#)
        // Through another encoder the hook edits the output too.
        let foundation = try JSONValue(parsing: JSONEncoder().encode(HookedOrder(id: 1, total: 2)))
        #expect(foundation["currency"] == "EUR")
        #expect(foundation["version"] == 2)
        #expect(foundation["id"] == 1)
    }

    @Test func allowAndIgnoreLists() throws {
        let allowed = try decoder.decode(AllowListed.self, from: #"{"id": 1, "name": "n", "secret": "x", "note": "y"}"#)
        #expect(allowed == AllowListed(id: 1, name: "n", secret: "s", note: nil))
        var encoder = ModelEncoder()
        encoder.sortedKeys = true
        #expect(try encoder.encodeToString(allowed) == #"{"id":1,"name":"n"}"#)
        let ignored = try decoder.decode(IgnoreListed.self, from: #"{"id": 1, "cache": [1], "draft": true}"#)
        #expect(ignored == IgnoreListed(id: 1, cache: [], draft: nil))
        #expect(try encoder.encodeToString(ignored) == #"{"id":1}"#)
    }
}
