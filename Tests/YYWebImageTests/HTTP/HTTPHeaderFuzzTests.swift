import Foundation
import TestSupport
import Testing

@testable import YYWebImage

/// The header parsers read what any server sends: random and mutated Cache-Control, Expires, Date,
/// Age and Last-Modified values never crash them, and what they make of them is always a record
/// the disk cache can store and read back.
struct HTTPHeaderFuzzTests {
    private static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// Pieces that header values are made of, valid and not.
    private static let pieces = [
        "max-age", "no-store", "no-cache", "must-revalidate", "public", "=", ",", " ", "\"", "-", ":",
        "0", "1", "600", "-1", "99999999999999999999999", "1e308", "inf", "nan", "0x10", "+5",
        "Sun", "Nov", "06", "1994", "08", "49", "37", "GMT", "9223372036854775807", "\u{0}", "é", "\t",
    ]

    /// Valid values that mutations start from.
    private static let seeds = [
        "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        "public, max-age=600", "no-cache", "max-age=\"60\", must-revalidate", "100",
    ]

    private static func randomValue(using random: inout SplitMix64) -> String {
        if Bool.random(using: &random) {
            return (0..<Int.random(in: 0..<12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        let seed = seeds.randomElement(using: &random)!
        if Int.random(in: 0..<3, using: &random) == 0 {
            // One word of a valid value replaced: a year, a time or a number out of its range.
            var words = seed.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            words[Int.random(in: 0..<words.count, using: &random)] = pieces.randomElement(using: &random)!
            return words.joined(separator: " ")
        }
        var bytes = Array(seed.utf8)
        for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
            let index = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: bytes[index] = UInt8.random(in: 0x20...0x7E, using: &random)
            case 1: bytes.remove(at: index)
            default: bytes.insert(UInt8(ascii: "9"), at: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func randomHeaderValuesMakeRecordsTheDiskCacheCanStore() throws {
        var random = SplitMix64(seed: 0x4854_5450)
        let names = ["Cache-Control", "Expires", "Date", "Age", "Last-Modified", "ETag"]
        for _ in 0..<20_000 {
            var headers = HTTPHeaderFields()
            for name in names where Bool.random(using: &random) {
                headers.append(name: name, value: Self.randomValue(using: &random))
            }
            let control = CacheControl(headers)
            if let maxAge = control.maxAge { #expect(maxAge >= 0) }
            for field in ["Expires", "Date", "Last-Modified"] {
                guard let date = headers[field].flatMap(HTTPDate.parse) else { continue }
                // Four digits of year at most (0000 to 9999): all an HTTP date can say.
                #expect(
                    date.timeIntervalSince1970 >= -62_167_219_200 && date.timeIntervalSince1970 < 253_402_300_800,
                    "\(headers[field]!) parsed as \(date)")
            }
            guard let record = StoredResponse(statusCode: 200, headers: headers, now: Self.now, defaultLifetime: 3_600) else {
                #expect(control.noStore)
                continue
            }
            #expect(record.freshUntil >= Self.now && record.freshUntil.timeIntervalSince1970.isFinite)
            let stored = try JSONEncoder().encode(record)
            #expect(try JSONDecoder().decode(StoredResponse.self, from: stored) == record)
            if let refreshed = record.refreshed(by: headers, now: Self.now, defaultLifetime: 3_600) {
                #expect(refreshed.freshUntil >= Self.now)
            }
        }
    }
}
