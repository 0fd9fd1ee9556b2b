import Foundation
import TestSupport
import Testing

@testable import YYModelCore

/// The parser's doubles against the standard library's correctly rounded reader, bit for bit.
@Suite struct NumberParsingTests {
    func parsedBits(_ text: String) throws -> UInt64? {
        switch try JSONValue(parsing: text) {
        case .double(let value): value.bitPattern
        case .int(let value): Double(value).bitPattern
        case .uint(let value): Double(value).bitPattern
        default: nil
        }
    }

    @Test(arguments: [
        "4.9406564584124654e-324", "2.4703282292062328e-324", "2.4703282292062327e-324", "2.2250738585072011e-308",
        "2.2250738585072014e-308", "1.7976931348623157e308", "9007199254740993.0", "9007199254740992.5",
        "0.1", "0.3", "1e-342", "1e-343", "123456789012345678e-10", "7.0e-10", "5e-324", "1.0000000000000002",
        "3.0517578125e-05", "1e22", "1e23", "8.8", "-0.0", "0.000001234567890123", "18446744073709551615e-5",
        "4.35679e-321", "9.999999999999999e22", "2.2250738585072009e-308", "1.00000000000000011102230246251565404e0",
    ])
    func edgeCasesMatchTheStandardLibrary(text: String) throws {
        #expect(try parsedBits(text) == Double(text)!.bitPattern, "\(text)")
    }

    @Test func beyondDoubleIsAnError() {
        #expect(throws: JSONError.self) { try JSONValue(parsing: "1.7976931348623159e308") }
        #expect(throws: JSONError.self) { try JSONValue(parsing: "1e309") }
    }

    /// Random decimal numbers (1 to 19 digits, exponents across the whole range), seeded.
    @Test func randomNumbersMatchTheStandardLibrary() throws {
        let count = Int(ProcessInfo.processInfo.environment["YYKIT_NUMBER_CASES"] ?? "") ?? 200_000
        var generator = SplitMix64(seed: 42)
        var mismatches: [String] = []
        for _ in 0..<count {
            let digitCount = Int(generator.next() % 19) + 1
            var digits = String(generator.next() % 9 + 1)
            for _ in 1..<digitCount { digits.append(Character(String(generator.next() % 10))) }
            let exponent = Int(generator.next() % 680) - 350
            let point = Int(generator.next() % UInt64(digitCount))
            let text =
                point == 0
                ? "\(digits)e\(exponent)"
                : "\(digits.prefix(point)).\(digits.dropFirst(point))e\(exponent)"
            guard let expected = Double(text), expected.isFinite else { continue }
            if try parsedBits(text) != expected.bitPattern { mismatches.append(text) }
            if mismatches.count > 10 { break }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    /// Integers of every length from 1 to 20 digits (the eight-digit steps and the single-digit
    /// tail, up to UInt64's overflow into a double), alone and inside an array, exactly.
    @Test func integersOfEveryLengthParseExactly() throws {
        var generator = SplitMix64(seed: 7)
        for length in 1...20 {
            for _ in 0..<200 {
                var text = String(generator.next() % 9 + 1)
                for _ in 1..<length { text.append(Character(String(generator.next() % 10))) }
                let expected: JSONValue =
                    if let int = Int64(text) { .int(int) } else if let uint = UInt64(text) { .uint(uint) } else { .double(Double(text)!) }
                #expect(try JSONValue(parsing: text) == expected, "\(text)")
                #expect(try JSONValue(parsing: "[-\(text), \(text)]") == .array([negated(expected, text: text), expected]), "\(text)")
            }
        }
    }

    private func negated(_ value: JSONValue, text: String) -> JSONValue {
        if let int = Int64("-" + text) { return .int(int) }
        return .double(Double("-" + text)!)
    }

    /// A run of digits broken by another byte at every place of an eight-byte step: the number
    /// ends there, or the text is an error, exactly as when read one digit at a time.
    @Test func aDigitRunEndsAtTheFirstByteThatIsNotADigit() throws {
        for length in 1...18 {
            let digits = String("123456789012345678".prefix(length))
            let value = Double("1." + digits)!
            #expect(try JSONValue(parsing: "[1.\(digits)]") == .array([.double(value)]), "\(digits)")
            #expect(try JSONValue(parsing: "[1.\(digits) ]") == .array([.double(value)]), "\(digits)")
            #expect(try JSONValue(parsing: "[1.\(digits),2]") == .array([.double(value), .int(2)]), "\(digits)")
            #expect(try JSONValue(parsing: "[1.\(digits)e1]") == .array([.double(Double("1.\(digits)e1")!)]), "\(digits)")
            #expect(try JSONValue(parsing: "[\(digits)0]") == (try JSONValue(parsing: "\(digits)0").arrayWrapped), "\(digits)")
            for breaker in [".5", "/", ":", "a", "-"] {
                #expect(throws: JSONError.self, "1.\(digits)\(breaker)") { try JSONValue(parsing: "[1.\(digits)\(breaker)]") }
                if breaker != ".5" {
                    #expect(throws: JSONError.self, "\(digits)\(breaker)") { try JSONValue(parsing: "[\(digits)\(breaker)]") }
                }
            }
        }
    }

    @Test func eightDigitWordsAreReadOnlyWhenEveryByteIsADigit() {
        func word(_ text: String) -> UInt64 { text.utf8.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
        #expect(JSONParser.eightDigits(word("12345678")) == 12_345_678)
        #expect(JSONParser.eightDigits(word("00000000")) == 0)
        #expect(JSONParser.eightDigits(word("99999999")) == 99_999_999)
        for place in 0..<8 {
            for byte in [0x2F, 0x3A, 0x3F, 0x40, 0xB0, 0xFA, 0xFF, 0x00] as [UInt8] {
                var bytes = Array("99999999".utf8)
                bytes[place] = byte
                let packed = bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
                #expect(JSONParser.eightDigits(packed) == nil, "byte \(byte) at \(place)")
            }
        }
    }
}

extension NumberParsingTests {
    @Test func leadingDigitRunsOfEveryLengthAreCountedAndRead() {
        func word(_ bytes: [UInt8]) -> UInt64 { bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
        for count in 0...8 {
            for stop in [0x2C, 0x2E, 0x2F, 0x3A, 0x45, 0x5D, 0x65, 0x00, 0xFF] as [UInt8] {
                let digits = Array("87654321".utf8.prefix(count))
                let bytes = digits + Array(repeating: stop, count: 8 - count)
                let run = JSONParser.leadingDigits(word(bytes))
                #expect(run.count == count, "\(count) digits before \(stop)")
                #expect(run.value == UInt64(String(decoding: digits, as: UTF8.self)) ?? 0, "\(count) digits before \(stop)")
            }
        }
        // A byte that is not a digit stops the run even when digits follow it.
        #expect(JSONParser.leadingDigits(word(Array("12.45678".utf8))) == (2, 12))
    }
}

extension JSONValue {
    fileprivate var arrayWrapped: JSONValue { .array([self]) }
}
