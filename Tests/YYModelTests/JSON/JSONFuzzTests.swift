// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (properties spelled as the JSON keys they decode)
import Foundation
import TestSupport
import TestTraits
import Testing
import YYModel

/// A seeded mutation fuzzer for the parser and both model paths: inputs from the corpus and
/// JSONTestSuite are mutated (byte flips, insertions of JSON-significant bytes, deletions,
/// truncations, splices) and parsed. Every input must either parse or throw `JSONError`, never
/// crash or hang; whatever parses must be written and parsed back to an equal value, and decode
/// into a `@Model` type and a plain `Codable` one (lenient and strict) or throw `DecodingError`.
///
/// CI runs it for a few seconds. The long run (issue 3 asks for at least 10 minutes):
///
///     YYKIT_FUZZ_SECONDS=600 swift test --filter JSONFuzzTests
///     YYKIT_FUZZ_SECONDS=600 scripts/sanitize address --filter JSONFuzzTests    # with AddressSanitizer
///
/// `YYKIT_FUZZ_SEED` replays a run.
@Suite(.needsSharedTestData)
struct JSONFuzzTests {
    static let seeds: [[UInt8]] = {
        let suite = TestData.files(in: "json/jsontestsuite/test_parsing")
        let corpus = ["github_events.json", "yymodel_github_user.json", "yymodel_weibo.json", "apache_builds.json"]
            .map { TestData.url("json/corpus/" + $0) }
        return (suite + corpus).compactMap { try? [UInt8](Data(contentsOf: $0)) }
    }()

    static let interesting: [UInt8] =
        Array(#"{}[]",:"\/bfnrtu0123456789-+.eE truefalsenull"#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xED, 0xF4, 0xFF]

    @Test func mutatedInputsNeverCrash() throws {
        let environment = ProcessInfo.processInfo.environment
        let seconds = Double(environment["YYKIT_FUZZ_SECONDS"] ?? "") ?? 3
        let seed = UInt64(environment["YYKIT_FUZZ_SEED"] ?? "") ?? 20261122
        var generator = SplitMix64(seed: seed)
        let deadline = Date().addingTimeInterval(seconds)
        var runs = 0, accepted = 0, decoded = 0
        while Date() < deadline {
            for _ in 0..<200 {
                let input = Self.mutate(Self.seeds[Int(generator.next() % UInt64(Self.seeds.count))], using: &generator)
                do {
                    let value = try JSONDocument(parsing: input, options: JSONParsingOptions(maximumDepth: 64)).value
                    accepted += 1
                    let written = try JSONWriter().bytes(for: value)
                    #expect(try JSONValue(parsing: written) == value, "seed \(seed), run \(runs)")
                    decoded += Self.decodeAsModels(input)
                } catch is JSONError {
                    // Rejected with a typed error: fine.
                }
                runs += 1
            }
        }
        print("JSON fuzz: \(runs) inputs in \(seconds) s (seed \(seed)), \(accepted) accepted, \(decoded) model decodes, no crash")
        // The mutations reached every path: rejected input, input that parses, and input that
        // also decodes into the models.
        #expect(accepted < runs, "some inputs were rejected")
        #expect(accepted > 0, "some inputs parsed")
        #expect(decoded > 0, "some inputs decoded into models")
    }

    static let decoders: [ModelDecoder] = [
        ModelDecoder(),
        {
            var strict = ModelDecoder(); strict.coercion = .strict; return strict
        }(),
    ]

    /// Decodes `input` into the fuzz models through both paths; only `DecodingError`s may come out.
    /// Returns how many of the decodes succeeded.
    static func decodeAsModels(_ input: [UInt8]) -> Int {
        var decoded = 0
        for decoder in decoders {
            for decode in [
                { _ = try decoder.decode(FuzzUser.self, from: input) }, { _ = try decoder.decode(PlainFuzzUser.self, from: input) },
                { _ = try decoder.decode([FuzzUser].self, from: input) },
            ] {
                do {
                    try decode()
                    decoded += 1
                } catch is DecodingError {
                    // A typed error: fine.
                } catch {
                    Issue.record("not a DecodingError: \(error)")
                }
            }
        }
        return decoded
    }

    static func mutate(_ original: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
        var bytes = original
        for _ in 0...(generator.next() % 4) {
            let position = bytes.isEmpty ? 0 : Int(generator.next() % UInt64(bytes.count))
            switch generator.next() % 6 {
            case 0 where !bytes.isEmpty:
                bytes[position] ^= UInt8(truncatingIfNeeded: 1 << (generator.next() % 8))
            case 1:
                bytes.insert(interesting[Int(generator.next() % UInt64(interesting.count))], at: position)
            case 2 where !bytes.isEmpty:
                bytes.remove(at: position)
            case 3:
                bytes = Array(bytes.prefix(position))
            case 4:
                let other = seeds[Int(generator.next() % UInt64(seeds.count))]
                let cut = other.isEmpty ? 0 : Int(generator.next() % UInt64(other.count))
                bytes = Array(bytes.prefix(position)) + other.suffix(from: cut)
            default:
                let repeated = [UInt8](repeating: bytes.isEmpty ? UInt8(ascii: "[") : bytes[position], count: Int(generator.next() % 64))
                bytes.insert(contentsOf: repeated, at: position)
            }
        }
        return bytes
    }
}

/// Shapes found in the fuzz seeds (GitHub users and events): scalars, optionals, nested models,
/// arrays and dictionaries of them, a key path and fallback keys.
@Model
struct FuzzUser {
    var login: String?
    @Key("id", "ID") var id: Int64?
    var site_admin: Bool = false
    var score: Double?
    @Key("payload.size") var size: Int?
    var followers: [FuzzUser]?
    var owner: FuzzOwner?
    var labels: [String: String]?
    var created_at: Date?
}

@Model
struct FuzzOwner {
    var login: String
    var id: UInt64
}

/// `FuzzUser` through the Codable bridge (synthesized conformance).
struct PlainFuzzUser: Codable {
    var login: String?
    var id: Int64?
    var site_admin: Bool?
    var score: Double?
    var followers: [PlainFuzzUser]?
    var owner: [String: JSONValue]?
    var labels: [String: String]?
    var created_at: Date?
}
