import NIOCore
import TestSupport
import Testing

@testable import YYCacheRedis

@Suite struct RESPParserTests {
    let parser = RESPParser(maximumBulkLength: 1024)

    private func parseAll(_ text: String) throws -> [RESPValue] {
        var buffer = ByteBuffer(string: text)
        var values: [RESPValue] = []
        while let value = try parser.parse(&buffer) { values.append(value) }
        #expect(buffer.readableBytes == 0, "bytes left over")
        return values
    }

    @Test func readsEveryReplyType() throws {
        let values = try parseAll("+OK\r\n-WRONGTYPE bad\r\n:-42\r\n$5\r\nhe\r\no\r\n$-1\r\n*2\r\n:1\r\n*1\r\n$0\r\n\r\n*-1\r\n")
        #expect(
            values == [
                .simpleString("OK"), .error("WRONGTYPE bad"), .integer(-42),
                .bulkString(ByteBuffer(string: "he\r\no")), .bulkString(nil),
                .array([.integer(1), .array([.bulkString(ByteBuffer())])]), .array(nil),
            ])
    }

    @Test func aReplyCutAnywhereWaitsForTheRestWithoutConsuming() throws {
        let whole = "*3\r\n$3\r\nabc\r\n:7\r\n+PONG\r\n"
        let bytes = Array(whole.utf8)
        for cut in 0..<bytes.count {
            var buffer = ByteBuffer(bytes: bytes[..<cut])
            #expect(try parser.parse(&buffer) == nil, "cut at \(cut)")
            #expect(buffer.readableBytes == cut)
            buffer.writeBytes(bytes[cut...])
            #expect(try parser.parse(&buffer) == .array([.bulkString(ByteBuffer(string: "abc")), .integer(7), .simpleString("PONG")]))
        }
    }

    @Test func aBulkReplyFollowedByMoreBytesIsACopyAndOneThatEndsThemSharesTheBuffer() throws {
        var buffer = ByteBuffer(string: "$3\r\nabc\r\n$3\r\ndef\r\n")
        let storage = buffer.withVeryUnsafeBytes { $0.baseAddress }
        let first = try #require(try parser.parse(&buffer))
        let second = try #require(try parser.parse(&buffer))
        guard case .bulkString(let abc?) = first, case .bulkString(let def?) = second else {
            Issue.record("not bulk strings: \(first), \(second)")
            return
        }
        #expect(abc == ByteBuffer(string: "abc"))
        #expect(def == ByteBuffer(string: "def"))
        // The first would pin the storage that the next reads are appended to: it is copied. The
        // second is the bytes where they lie, 13 bytes in.
        #expect(abc.withVeryUnsafeBytes { $0.baseAddress } != storage.map { $0 + 4 })
        #expect(def.withVeryUnsafeBytes { $0.baseAddress } == storage.map { $0 + 13 })
    }

    @Test func theDecoderReclaimsReadBytesOnlyWhenFewUnreadBytesMoveOrMuchIsRead() {
        let decoder = RESPReplyDecoder(parser: parser)
        func buffer(read: Int, unread: Int) -> ByteBuffer {
            var buffer = ByteBuffer(repeating: 0, count: read + unread)
            buffer.moveReaderIndex(forwardBy: read)
            return buffer
        }
        #expect(!decoder.shouldReclaimBytes(buffer: buffer(read: 1024, unread: 0)))
        #expect(decoder.shouldReclaimBytes(buffer: buffer(read: 64 << 10, unread: 8 << 10)))
        #expect(!decoder.shouldReclaimBytes(buffer: buffer(read: 64 << 10, unread: 9 << 10)))
        #expect(decoder.shouldReclaimBytes(buffer: buffer(read: 4 << 20, unread: 4 << 20)))
    }

    @Test(arguments: [
        ("!oops\r\n", "cannot start with byte 0x21"),
        ("$1025\r\n", "over the limit"),
        ("$-2\r\n", "negative bulk string length"),
        ("$3\r\nabcXY", "not followed by CRLF"),
        (":12a\r\n", "is not an integer"),
        (":99999999999999999999\r\n", "is not an integer"),
        (":9223372036854775808\r\n", "overflows 64 bits"),
        ("*-5\r\n", "out of range"),
        ("+a\rb\r\n", "a CR inside a reply line"),
    ])
    func refusesMalformedReplies(text: String, reason: String) {
        var buffer = ByteBuffer(string: text)
        #expect { try parser.parse(&buffer) } throws: { ($0 as? RESPParser.Malformed)?.description.contains(reason) == true }
    }

    @Test func refusesAnEndlessLineOnceItPassesTheLimit() {
        var limited = parser
        limited.maximumLineLength = 16
        var buffer = ByteBuffer(string: "+" + String(repeating: "x", count: 16))
        #expect(throws: Never.self) { try limited.parse(&buffer) }
        buffer.writeString("xx")
        #expect(throws: RESPParser.Malformed.self) { try limited.parse(&buffer) }
    }

    @Test func refusesArraysNestedTooDeep() {
        var buffer = ByteBuffer(string: String(repeating: "*1\r\n", count: 9) + ":1\r\n")
        #expect(throws: RESPParser.Malformed.self) { try parser.parse(&buffer) }
        var shallow = ByteBuffer(string: String(repeating: "*1\r\n", count: 8) + ":1\r\n")
        #expect(throws: Never.self) { try parser.parse(&shallow) }
    }

    /// Random bytes and random mutations of valid replies: the parser answers with a value, "need
    /// more" or an error, and never traps or loops.
    @Test func survivesRandomBytesAndMutations() throws {
        var random = SplitMix64(seed: 0x5EED)
        let valid = Array("*3\r\n$3\r\nabc\r\n:-7\r\n*2\r\n+OK\r\n-ERR x\r\n".utf8)
        var outcomes = [0, 0, 0]  // value, incomplete, error
        for round in 0..<20_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0..<40, using: &random)).map { _ in
                    [UInt8(ascii: "*"), UInt8(ascii: "$"), UInt8(ascii: ":"), 0x0D, 0x0A, UInt8(ascii: "1"), UInt8(ascii: "-"), 0x41]
                        .randomElement(using: &random)!
                }
            } else {
                bytes = valid
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            }
            var buffer = ByteBuffer(bytes: bytes)
            do {
                if try parser.parse(&buffer) != nil { outcomes[0] += 1 } else { outcomes[1] += 1 }
            } catch {
                outcomes[2] += 1
            }
        }
        // Every kind of outcome happened, so the inputs reached all the parser's exits.
        #expect(outcomes.allSatisfy { $0 > 100 }, "\(outcomes)")
    }
}
