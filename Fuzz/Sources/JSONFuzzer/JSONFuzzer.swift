// libFuzzer entry for YYModelCore's JSON parser, writers and Codable decoder. Every input must
// parse or throw `JSONError`; what parses must survive being written again:
// - `formatted(pretty:)` copies numbers as written, so its output parses to the same value;
// - `JSONWriter` writes values, so its output parses to a value equal number for number.
// A broken invariant traps, which libFuzzer reports with the input that caused it.
import Foundation
import FuzzDriver
import YYModelCore

/// A model with a field of each kind the lenient decoder coerces into.
private struct Sample: Codable {
    var id: Int?
    var name: String?
    var flag: Bool?
    var ratio: Double?
    var date: Date?
    var tags: [String]?
    var children: [Sample]?
    var extra: [String: JSONValue]?
}

/// `value` with numbers as `Double` where that is how they compare after a round trip through
/// `JSONWriter` (an integral double may come back as an integer).
private func normalized(_ value: JSONValue) -> JSONValue {
    switch value {
    case .int(let number): .double(Double(number))
    case .uint(let number): .double(Double(number))
    case .array(let elements): .array(elements.map(normalized))
    case .object(let members): .object(members.mapValues(normalized))
    default: value
    }
}

@main
enum JSONFuzzer {
    static func main() { exit(runFuzzer(testOneInput)) }
}

/// One input.
private func fuzzJSON(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    let document: JSONDocument
    do {
        document = try JSONDocument(parsing: bytes)
    } catch {
        return 0
    }
    let value = document.value
    for pretty in [false, true] {
        let again = try? JSONDocument(parsing: document.formatted(pretty: pretty)).value
        precondition(again == value, "formatted(pretty: \(pretty)) did not parse back to the same value")
    }
    if let written = try? JSONWriter().bytes(for: value) {
        guard let again = try? JSONValue(parsing: written) else { preconditionFailure("JSONWriter wrote what does not parse") }
        precondition(normalized(again) == normalized(value), "JSONWriter's output parsed back to another value")
    }
    var lenient = ModelDecoder()
    lenient.coercion = .lenient
    _ = try? lenient.decode(Sample.self, from: bytes)
    _ = try? lenient.decode([Sample].self, from: bytes)
    var strict = ModelDecoder()
    strict.coercion = .strict
    _ = try? strict.decode(Sample.self, from: bytes)
    _ = try? ModelDecoder().decode(JSONValue.self, from: bytes)
    return 0
}

private let testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { start, count in
    guard let start else { return 0 }
    return fuzzJSON(start, count)
}
