import NIOCore
import Testing

@testable import YYCacheRedis

/// Key slots as Redis Cluster computes them (its specification's CRC16 check value and examples),
/// hash tags, and the redirections and slot maps cluster nodes send.
struct HashSlotTests {
    @Test func crc16MatchesTheSpecificationsCheckValue() {
        let crc = Array("123456789".utf8).withUnsafeBytes { HashSlot.crc16($0) }
        #expect(crc == 0x31C3)
    }

    @Test func knownKeysHaveTheirKnownSlots() {
        #expect(HashSlot.of(ByteBuffer(string: "foo")) == 12182)
        #expect(HashSlot.of(ByteBuffer(string: "bar")) == 5061)
        #expect(HashSlot.of(ByteBuffer(string: "")) == 0)
    }

    @Test(arguments: [
        ("{user1000}.following", "user1000"),
        ("foo{}{bar}", "foo{}{bar}"),  // an empty tag: the whole key
        ("foo{{bar}}zap", "{bar"),  // from the first "{" to the first "}" after it
        ("foo{bar}{zap}", "bar"),  // only the first tag counts
        ("no tag at all", "no tag at all"),
        ("{unclosed", "{unclosed"),
    ])
    func aHashTagDecidesTheSlot(key: String, hashed: String) {
        #expect(HashSlot.of(ByteBuffer(string: key)) == HashSlot.of(ByteBuffer(string: hashed)))
    }

    @Test func keysSharingATagShareASlot() {
        #expect(HashSlot.of(ByteBuffer(string: "{user1000}.following")) == HashSlot.of(ByteBuffer(string: "{user1000}.followers")))
    }

    @Test func movedAndAskRepliesAreRead() {
        #expect(
            ClusterRedirect(errorMessage: "MOVED 3999 127.0.0.1:6381")
                == ClusterRedirect(kind: .moved, slot: 3999, host: "127.0.0.1", port: 6381))
        #expect(ClusterRedirect(errorMessage: "ASK 0 10.0.0.7:7000") == ClusterRedirect(kind: .ask, slot: 0, host: "10.0.0.7", port: 7000))
        // IPv6 hosts keep their colons; an unknown endpoint is an empty host.
        #expect(ClusterRedirect(errorMessage: "MOVED 16383 ::1:7001") == ClusterRedirect(kind: .moved, slot: 16383, host: "::1", port: 7001))
        #expect(ClusterRedirect(errorMessage: "MOVED 12 :7002") == ClusterRedirect(kind: .moved, slot: 12, host: "", port: 7002))
    }

    @Test(arguments: [
        "ERR unknown command", "MOVED", "MOVED 16384 127.0.0.1:1", "MOVED 1 127.0.0.1", "ASK x 127.0.0.1:1",
        "MOVED 1 127.0.0.1:0", "MOVED 1 127.0.0.1:1 extra", "CLUSTERDOWN The cluster is down",
    ])
    func otherErrorsAreNoRedirection(message: String) {
        #expect(ClusterRedirect(errorMessage: message) == nil)
    }

    @Test func aSlotMapIsRead() throws {
        func node(_ host: String?, _ port: Int64) -> RESPValue {
            .array([.bulkString(host.map { ByteBuffer(string: $0) }), .integer(port), .bulkString(ByteBuffer(string: "id"))])
        }
        let reply = RESPValue.array([
            .array([.integer(0), .integer(5460), node("127.0.0.1", 7000), node("127.0.0.1", 7003)]),
            .array([.integer(5461), .integer(16383), node("?", 7001)]),
        ])
        #expect(
            try ClusterSlotRange.parse(reply, node: "n") == [
                ClusterSlotRange(slots: 0...5460, host: "127.0.0.1", port: 7000),
                ClusterSlotRange(slots: 5461...16383, host: "", port: 7001),
            ])
    }

    @Test(arguments: [
        RESPValue.simpleString("OK"),
        .array([.array([.integer(0), .integer(16384), .array([.bulkString(ByteBuffer(string: "h")), .integer(1)])])]),
        .array([.array([.integer(10), .integer(5), .array([.bulkString(ByteBuffer(string: "h")), .integer(1)])])]),
        .array([.array([.integer(0), .integer(5), .array([.bulkString(ByteBuffer(string: "h")), .integer(70000)])])]),
        .array([.array([.integer(0), .integer(5)])]),
    ])
    func aMalformedSlotMapIsAnError(reply: RESPValue) {
        #expect(throws: RedisError.self) { try ClusterSlotRange.parse(reply, node: "n") }
    }
}
