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
