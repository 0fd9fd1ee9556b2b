public import Foundation
public import Logging
import NIOCore
public import YYCache
import YYDispatch

/// `YYCache.SharedCacheTier` on Redis: what one machine stores, the others read.
///
/// - Keys are stored under ``namespace`` (default `yycache:`), so several caches and other data can
///   share a server. Keys and values are binary-safe.
/// - Each value carries a small header (format version, expiration, length, XXH64 checksum): a value
///   some other program wrote, one cut short or one corrupted reads as a miss, never as a value.
/// - Values over ``maximumValueSize`` (default 16 MB) are not sent; the local levels keep them.
/// - Time to live is Redis's own (`SET … PX`), so Redis drops expired values by itself; one longer
///   than 100 years is sent as 100 years (Redis refuses a deadline past its clock's range).
/// - Fill locks are `SET lock NX PX`, released only by their owner (a small Lua script), so one
///   process fills a missing key while the others wait for its result. A removal marks the lock
///   of its key as superseded, and a fill's value is stored only while its owner's lock is
///   neither superseded nor taken over and no value of the tier's is stored (Lua scripts again;
///   one the cache could not use is replaced): a fill that read its source before a removal or a
///   write on another machine does not undo it.
/// - Every request is bounded by the client's operation timeout, and a node that fails is skipped
///   for a while (its circuit opens): the tier then reads as a miss and skips writes, and the cache
///   goes on with its local levels.
///
/// ```swift
/// let tier = try RedisCacheTier(urls: ["redis://10.0.0.5:6379", "redis://10.0.0.6:6379"])
/// let cache = try Cache<Data>(name: "thumbnails", sharedTier: tier)
/// ```
public final class RedisCacheTier: SharedCacheTier {
    /// The client, shared with anyone else who wants it.
    public let client: RedisClient
    /// The prefix of every key this tier stores.
    public let namespace: String
    /// The largest value sent to Redis; larger ones stay local.
    public let maximumValueSize: Int
    private let logger: Logger
    private let counters = Locked(RedisTierStatistics())
    /// Deletes the lock only if it still holds the caller's token, or that token marked
    /// superseded: a lock that expired and was taken by another process must not be released by
    /// the first. (KEYS: lock; ARGV: owner.)
    private static let releaseScript = """
        local held = redis.call('get', KEYS[1])
        if held == ARGV[1] or held == 'superseded:' .. ARGV[1] then return redis.call('del', KEYS[1]) end
        return 0
        """
    /// A removal: marks the key's fill lock, if held, as superseded (keeping its expiry, so that
    /// its owner's fill is not stored and no one else takes the lock before that owner let go of
    /// it), then deletes the value, when it is given as the second key. In this order even as two
    /// commands: a fill's store between them finds the lock superseded. A lock key of another type
    /// (no lock of ours) does not stop the removal. (KEYS: lock[, value].)
    private static let removeScript = """
        local held = redis.pcall('get', KEYS[1])
        if type(held) == 'string' and string.sub(held, 1, 11) ~= 'superseded:' then redis.call('set', KEYS[1], 'superseded:' .. held, 'keepttl') end
        if KEYS[2] then return redis.call('del', KEYS[2]) end
        return 0
        """
    /// A fill's store: only if the lock is the owner's or gone (it expired: the fill took longer
    /// than the lock lives), and, unless the fill replaces a value it could not use, no value of
    /// this tier's is stored (one that starts with its header; another program's value under the
    /// key is no write made during the fill). (KEYS: value, lock; ARGV: owner, framed value,
    /// "1" to replace, the header's first four bytes[, milliseconds to live].)
    private static let fillStoreScript = """
        local held = redis.call('get', KEYS[2])
        if held and held ~= ARGV[1] then return 0 end
        if ARGV[3] ~= '1' and redis.pcall('getrange', KEYS[1], 0, 3) == ARGV[4] then return 0 end
        if ARGV[5] then redis.call('set', KEYS[1], ARGV[2], 'px', ARGV[5]) else redis.call('set', KEYS[1], ARGV[2]) end
        return 1
        """

    /// A tier on `client`.
    public init(
        client: RedisClient,
        namespace: String = "yycache:",
        maximumValueSize: Int = 16 << 20,
        logger: Logger = Logger(label: "YYCacheRedis")
    ) {
        self.client = client
        self.namespace = namespace
        self.maximumValueSize = maximumValueSize
        self.logger = logger
    }

    /// A tier on servers given as `redis://[user:password@]host[:port][/db]` URLs, with the
    /// client's default settings.
    public convenience init(urls: [String], namespace: String = "yycache:", logger: Logger = Logger(label: "YYCacheRedis")) throws(RedisError) {
        self.init(client: try RedisClient(urls: urls), namespace: namespace, logger: logger)
    }

    /// Counters of this tier and of each node.
    public var statistics: RedisTierStatistics {
        var statistics = counters.withLock { $0 }
        statistics.nodes = client.nodeStatistics
        return statistics
    }

    public func entry(forKey key: String) async throws(RedisError) -> SharedCacheEntry? {
        let storedKey = storageKey(key)
        let reply: RESPValue
        do {
            reply = try await client.send(RedisCommand("GET", arguments: [storedKey]), key: storedKey)
        } catch .circuitOpen {
            counters.withLock {
                $0.skippedReads += 1; $0.misses += 1
            }
            return nil
        } catch {
            counters.withLock { $0.errors += 1 }
            throw error
        }
        switch reply {
        case .bulkString(nil):
            counters.withLock { $0.misses += 1 }
            return nil
        case .bulkString(let stored?):
            do {
                let (payload, expiration) = try StoredValueFrame.decode(stored)
                let expirationDate = expiration.map { Date(timeIntervalSince1970: Double($0) / 1000) }
                if let expirationDate, expirationDate <= Date() {
                    counters.withLock { $0.misses += 1 }
                    return nil
                }
                counters.withLock { $0.hits += 1 }
                return SharedCacheEntry(data: payload, expirationDate: expirationDate)
            } catch {
                counters.withLock {
                    $0.invalidValues += 1; $0.misses += 1
                }
                logger.warning("Redis value refused; read as a miss", metadata: ["key": "\(key)", "reason": "\(error)"])
                return nil
            }
        default:
            counters.withLock { $0.errors += 1 }
            throw RedisError.unexpectedReply(node: client.nodeAddress(forKey: storedKey).description, command: "GET", reply: "\(reply)")
        }
    }

    @discardableResult
    public func setData(_ data: Data, forKey key: String, timeToLive: Duration?) async throws(RedisError) -> SharedCacheWriteOutcome {
        guard let (value, milliseconds) = framed(data, timeToLive: timeToLive) else { return .skipped }
        let storedKey = storageKey(key)
        var arguments = [storedKey, value]
        if let milliseconds { arguments += [ByteBuffer(string: "PX"), ByteBuffer(string: milliseconds)] }
        return try await write(RedisCommand("SET", arguments: arguments), key: storedKey) { _ in .stored }
    }

    /// Stores a fill's value with a Lua script that checks the fill lock and the key in the same
    /// step. When a Redis Cluster would put the value and its lock in two slots (a value key with a
    /// hash tag of its own), one script cannot touch both: the value is then stored as by
    /// ``setData(_:forKey:timeToLive:)``.
    @discardableResult
    public func setFilledData(
        _ data: Data, forKey key: String, timeToLive: Duration?, fillLockOwner owner: String,
        replacingUnusableValue: Bool
    ) async throws(RedisError) -> SharedCacheWriteOutcome {
        let storedKey = storageKey(key)
        let lockKey = fillLockKey(valueKey: storedKey)
        guard HashSlot.of(storedKey) == HashSlot.of(lockKey) else { return try await setData(data, forKey: key, timeToLive: timeToLive) }
        guard let (value, milliseconds) = framed(data, timeToLive: timeToLive) else { return .skipped }
        var arguments = [
            ByteBuffer(string: Self.fillStoreScript), ByteBuffer(string: "2"), storedKey, lockKey, ByteBuffer(string: owner), value,
            ByteBuffer(string: replacingUnusableValue ? "1" : "0"), StoredValueFrame.magicBytes,
        ]
        if let milliseconds { arguments.append(ByteBuffer(string: milliseconds)) }
        return try await write(RedisCommand("EVAL", arguments: arguments), key: storedKey) { reply in
            switch reply {
            case .integer(1): .stored
            case .integer(0): .superseded
            default: nil
            }
        }
    }

    /// `data` in its header, and its time to live in milliseconds for `PX`; `nil` (counted as a
    /// skipped write) when it is over ``maximumValueSize``.
    private func framed(_ data: Data, timeToLive: Duration?) -> (value: ByteBuffer, milliseconds: String?)? {
        guard data.count <= maximumValueSize else {
            counters.withLock { $0.skippedWrites += 1 }
            return nil
        }
        var expiresAt: Int64?
        var milliseconds: String?
        if let timeToLive {
            let ttl = timeToLive.redisMilliseconds
            expiresAt = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) + ttl
            milliseconds = String(ttl)
        }
        return (StoredValueFrame.encode(data, expiresAtMilliseconds: expiresAt), milliseconds)
    }

    /// Sends a write of `key` and reads its outcome from the reply (`nil`: a reply the command
    /// does not give, an error); an open circuit skips it.
    private func write(
        _ command: RedisCommand, key storedKey: ByteBuffer,
        outcome: (RESPValue) -> SharedCacheWriteOutcome?
    ) async throws(RedisError) -> SharedCacheWriteOutcome {
        let reply: RESPValue
        do {
            reply = try await client.send(command, key: storedKey)
        } catch .circuitOpen {
            counters.withLock { $0.skippedWrites += 1 }
            return .skipped
        } catch {
            counters.withLock { $0.errors += 1 }
            throw error
        }
        guard let result = outcome(reply) else {
            counters.withLock { $0.errors += 1 }
            throw RedisError.unexpectedReply(node: client.nodeAddress(forKey: storedKey).description, command: command.name, reply: "\(reply)")
        }
        return result
    }

    /// Deletes the value and marks its fill lock superseded (see `removeScript`): in one script,
    /// or, when a Redis Cluster puts the two in different slots, the lock first.
    public func removeData(forKey key: String) async throws(RedisError) {
        let storedKey = storageKey(key)
        let lockKey = fillLockKey(valueKey: storedKey)
        let script = ByteBuffer(string: Self.removeScript)
        do {
            if HashSlot.of(storedKey) == HashSlot.of(lockKey) {
                try await client.send(RedisCommand("EVAL", arguments: [script, ByteBuffer(string: "2"), lockKey, storedKey]), key: storedKey)
            } else {
                try await client.send(RedisCommand("EVAL", arguments: [script, ByteBuffer(string: "1"), lockKey]), key: storedKey)
                try await client.send(RedisCommand("DEL", arguments: [storedKey]), key: storedKey)
            }
        } catch {
            counters.withLock { $0.errors += 1 }
            throw error
        }
    }

    public func acquireFillLock(forKey key: String, owner: String, timeToLive: Duration) async throws(RedisError) -> Bool {
        let valueKey = storageKey(key)
        let lockKey = fillLockKey(valueKey: valueKey)
        let milliseconds = String(timeToLive.redisMilliseconds)
        let command = RedisCommand(
            "SET",
            arguments: [
                lockKey, ByteBuffer(string: owner), ByteBuffer(string: "NX"),
                ByteBuffer(string: "PX"), ByteBuffer(string: milliseconds),
            ])
        do throws(RedisError) {
            switch try await client.send(command, key: valueKey) {
            case .simpleString("OK"): return true
            case .bulkString(nil): return false
            case let reply:
                throw RedisError.unexpectedReply(node: client.nodeAddress(forKey: valueKey).description, command: "SET NX", reply: "\(reply)")
            }
        } catch {
            counters.withLock { $0.errors += 1 }
            throw error
        }
    }

    public func releaseFillLock(forKey key: String, owner: String) async throws(RedisError) {
        let valueKey = storageKey(key)
        let command = RedisCommand(
            "EVAL",
            arguments: [
                ByteBuffer(string: Self.releaseScript), ByteBuffer(string: "1"),
                fillLockKey(valueKey: valueKey), ByteBuffer(string: owner),
            ])
        do {
            try await client.send(command, key: valueKey)
        } catch {
            counters.withLock { $0.errors += 1 }
            throw error
        }
    }

    /// `namespace + key`, as bytes: where the value of `key` is stored.
    private func storageKey(_ key: String) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(namespace.utf8.count + key.utf8.count)
        buffer.writeString(namespace)
        buffer.writeString(key)
        return buffer
    }

    /// Where the fill lock of `key` is stored: `namespace + "\0lock\0{" + namespace + key + "}"`.
    ///
    /// - Under the namespace, so that servers whose ACLs allow a client the namespace's keys
    ///   allow it the locks.
    /// - Not a key any value has, unless a cache key starts with `"\0lock\0{"`: a lock that
    ///   shared its key with a value (of a cache key such as `"lock:" + key`) could not be taken
    ///   while that value was stored, and its fill would wait for ever.
    /// - The value's key in braces: a Redis Cluster hashes only that (a hash tag), so the lock is
    ///   in the value's slot, on the node the request is routed to (by the value's key), with no
    ///   `MOVED` redirection, unless the value's key has braces of its own. Independent servers
    ///   get it on the value's node too, by that routing.
    func fillLockKey(_ key: String) -> ByteBuffer { fillLockKey(valueKey: storageKey(key)) }

    /// The fill lock's key from the value's (`storageKey`), which callers have at hand.
    private func fillLockKey(valueKey: ByteBuffer) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(namespace.utf8.count + valueKey.readableBytes + 8)
        buffer.writeString(namespace)
        buffer.writeString("\u{0}lock\u{0}{")
        buffer.writeImmutableBuffer(valueKey)
        buffer.writeString("}")
        return buffer
    }
}
