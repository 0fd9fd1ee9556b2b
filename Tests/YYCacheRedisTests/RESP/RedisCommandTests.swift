import NIOCore
import Testing

@testable import YYCacheRedis

@Suite struct RedisCommandTests {
    @Test func writesAnArrayOfBulkStrings() {
        let command = RedisCommand("SET", ["k", "v\r\n*$"])
        #expect(String(buffer: command.bytes) == "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nv\r\n*$\r\n")
    }

    @Test func binaryArgumentsRoundTripThroughTheParser() throws {
        let binary = ByteBuffer(bytes: [0, 13, 10, 255, 36])
        var bytes = RedisCommand("ECHO", arguments: [binary]).bytes
        let parsed = try RESPParser(maximumBulkLength: 100).parse(&bytes)
        #expect(parsed == .array([.bulkString(ByteBuffer(string: "ECHO")), .bulkString(binary)]))
    }
}

extension RedisCommandTests {
    @Test func aLargeArgumentIsSentFromItsOwnBufferAndTheWholeStillParses() throws {
        let large = ByteBuffer(repeating: 7, count: RedisCommand.copyLimit + 1)
        let command = RedisCommand("SET", arguments: [ByteBuffer(string: "k"), large, ByteBuffer(string: "PX")])
        try #require(command.parts.count == 3)
        #expect(command.parts[1] == large)
        var bytes = command.bytes
        let parsed = try RESPParser(maximumBulkLength: 1 << 20).parse(&bytes)
        #expect(
            parsed
                == .array([
                    .bulkString(ByteBuffer(string: "SET")), .bulkString(ByteBuffer(string: "k")),
                    .bulkString(large), .bulkString(ByteBuffer(string: "PX")),
                ]))
    }
}
