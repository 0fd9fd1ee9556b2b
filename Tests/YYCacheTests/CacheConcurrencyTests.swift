import Foundation
import Synchronization
import TestSupport
import TestTraits
import Testing
import YYDispatch

@testable import YYCache

/// Eight threads hammer one cache with random gets, sets, removes and trims; afterwards the
/// reported count and cost must match what is actually stored. Run under `-sanitize=thread` too.
@Suite struct CacheConcurrencyTests {
    static let threads = 8
    static var duration: Duration {
        .milliseconds(Int(ProcessInfo.processInfo.environment["YYKIT_STRESS_MS"] ?? "") ?? 2_000)
    }

    /// Runs `body(thread, generator)` on `threads` threads until `duration` has passed.
    static func hammer(_ body: @escaping @Sendable (Int, inout SplitMix64) -> Void) {
        let deadline = ContinuousClock.now + duration
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var generator = SplitMix64(seed: UInt64(thread) &+ 1)
            while ContinuousClock.now < deadline {
                for _ in 0..<64 { body(thread, &generator) }
            }
        }
    }

    @Test func memoryCacheStaysConsistentUnderEightThreads() {
        let cache = MemoryCache<Int, [UInt8]>()
        cache.countLimit = 3_000
        cache.costLimit = 200_000
        let operations = Atomic<Int>(0)
        Self.hammer { _, generator in
            let key = Int(generator.next() % 5_000)
            switch generator.next() % 100 {
            case 0..<45:
                if let value = cache.value(forKey: key) {
                    precondition(value.count == key % 97 + 1, "value of key \(key) has the wrong size")
                }
            case 45..<85:
                cache.setValue(
                    [UInt8](repeating: UInt8(key % 256), count: key % 97 + 1), forKey: key, cost: key % 97 + 1,
                    expiresAfter: key.isMultiple(of: 10) ? .milliseconds(5) : nil)
            case 85..<97: cache.removeValue(forKey: key)
            case 97: cache.trim(toCount: 2_000)
            case 98: cache.trim(toCost: 150_000)
            default: cache.removeExpiredValues()
            }
            operations.wrappingAdd(1, ordering: .relaxed)
        }
        var count = 0
        var cost = 0
        for key in 0..<5_000 {
            if let value = cache.removeValue(forKey: key) {
                count += 1
                cost += value.count
            }
        }
        #expect(cache.totalCount == 0)
        #expect(cache.totalCost == 0)
        #expect(count <= 3_000)
        #expect(cost <= 200_000)
        #expect(operations.load(ordering: .relaxed) > 10_000)
    }

    @Test func diskCacheStaysConsistentUnderEightThreads() throws {
        let folder = TemporaryDirectory("concurrent")
        let cache = try DiskCache(path: folder.path, inlineThreshold: 2_000)
        let failures = Locked<[String]>([])
        let operations = Atomic<Int>(0)
        // The size of a key's value tells which write it came from: every write of key k has
        // k's size, so any mismatch is a mixed-up or torn read.
        @Sendable func size(_ key: Int) -> Int { key.isMultiple(of: 3) ? 2_500 + key : 10 + key }
        Self.hammer { _, generator in
            let key = Int(generator.next() % 300)
            do {
                switch generator.next() % 100 {
                case 0..<50:
                    if let data = try cache.data(forKey: "\(key)"), data.count != size(key) || data.first != UInt8(key % 256) {
                        failures.withLock { $0.append("key \(key): \(data.count) bytes") }
                    }
                case 50..<85:
                    try cache.setData(
                        Data(repeating: UInt8(key % 256), count: size(key)), forKey: "\(key)",
                        extendedData: Data("\(key)".utf8))
                case 85..<97: try cache.removeValue(forKey: "\(key)")
                case 97: try cache.trim(toCount: 200)
                case 98: try cache.trim(toCost: 200_000)
                default: _ = try cache.contains("\(key)")
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
            operations.wrappingAdd(1, ordering: .relaxed)
        }
        #expect(failures.withLock { $0 } == [])
        var count = 0
        var cost = 0
        for key in 0..<300 {
            if let data = try cache.data(forKey: "\(key)") {
                count += 1
                cost += data.count
                #expect(try cache.extendedData(forKey: "\(key)") == Data("\(key)".utf8))
            }
        }
        #expect(try cache.totalCount == count)
        #expect(try cache.totalCost == cost)
        #expect(cache.dataFileNames == cache.referencedFileNames)
        #expect(operations.load(ordering: .relaxed) > 1_000)
    }

    @Test(.hangLimit)
    func twoProcessesShareOneFolder() async throws {
        let helper = try #require(BuildProducts.executable("cache-crash-writer"))
        let folder = TemporaryDirectory("twoprocs")
        let cache = try DiskCache(path: folder.path)
        // The child writes keys "key-0"..."key-99"; this process writes "mine-*" at the same time.
        let child = try ChildProcess(helper, ["write", folder.path, "42", "1500", "100"])
        for i in 0..<1_500 {
            try await cache.setData(testBytes(i.isMultiple(of: 4) ? 25_000 : 200, seed: UInt8(i % 256)), forKey: "mine-\(i % 150)")
        }
        let output = child.wait()
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.text.components(separatedBy: "\nC ").count - 1 == 1_500)
        for i in 1_350..<1_500 {
            #expect(try await cache.data(forKey: "mine-\(i % 150)") == testBytes(i.isMultiple(of: 4) ? 25_000 : 200, seed: UInt8(i % 256)))
        }
        var theirs = 0
        for key in 0..<100 where try await cache.contains("key-\(key)") { theirs += 1 }
        #expect(theirs == 100)
        #expect(try await cache.totals().count == 250)
    }
}

/// A disk hit is copied into memory after it was read: a write or removal of the key in between
/// must win, or memory serves the older value (or the removed one) until it is evicted.
@Suite(.hangLimit) struct CachePromotionRaceTests {
    /// A JSON coder whose decoding of one value waits until the test lets it go: the moment
    /// between a disk read and its copy into memory, held open.
    final class GatedCoder: CacheValueCoder {
        let held: Data
        let arrived = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        init(holding value: String) {
            held = try! JSONEncoder().encode(value)
        }

        func encode<T: Encodable>(_ value: T) throws -> Data { try JSONEncoder().encode(value) }

        func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
            if data == held {
                arrived.signal()
                release.wait()
            }
            return try JSONDecoder().decode(type, from: data)
        }
    }

    enum Write: CaseIterable, Sendable { case set, remove, removeAll }

    @Test(arguments: Write.allCases)
    func aWriteWhileADiskHitIsPromotedWins(_ write: Write) async throws {
        let folder = TemporaryDirectory("promotion")
        let cache = try Cache<String>(path: folder.path)
        let coder = GatedCoder(holding: "old")
        cache.diskCache.coder = coder
        try await cache.setValue("old", forKey: "k")
        cache.memoryCache.removeValue(forKey: "k")  // on disk only

        // A reader on a thread of its own finds "old" on disk and stops before keeping it in memory.
        let read = Locked<String??>(nil)
        let reader = Thread { read.withLock { $0 = .some(try? cache.value(forKey: "k")) } }
        reader.start()
        try #require(coder.arrived.wait(timeout: .now() + 60) == .success, "the reader never read the disk")

        switch write {
        case .set: try await cache.setValue("new", forKey: "k")
        case .remove: try await cache.removeValue(forKey: "k")
        case .removeAll: try await cache.removeAll()
        }
        coder.release.signal()
        await waitUntil { read.withLock { $0 } != nil }
        #expect(read.withLock { $0 } == .some("old"), "the reader returns what it found")

        let expected: String? = write == .set ? "new" : nil
        let inMemory = cache.memoryCache.value(forKey: "k")
        #expect(inMemory == nil || inMemory == expected, "memory keeps \(inMemory ?? "nothing")")
        #expect(try await cache.value(forKey: "k") == expected)
    }

    /// `setValue` writes memory, then the disk. Two writes of one key at once could end with
    /// memory holding one's value and the disk the other's: memory served it until it was
    /// evicted, then the disk's came back.
    @Test func twoWritesOfOneKeyAtOnceLeaveMemoryAgreeingWithTheDisk() async throws {
        let folder = TemporaryDirectory("two-writes")
        let cache = try Cache<String>(path: folder.path, inlineThreshold: 16)
        let first = String(repeating: "1", count: 100), second = String(repeating: "2", count: 100)
        // The first write stops inside its disk write, after it wrote memory: the file name stem
        // is asked for just before the file is written.
        let arrived = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let stops = Atomic(true)
        cache.diskCache.fileNameStem = { _ in
            if stops.exchange(false, ordering: .relaxed) {
                arrived.signal()
                release.wait()
            }
            return "value"
        }
        let done = Atomic(false)
        let writer = Thread {
            try? cache.setValue(first, forKey: "k")
            done.store(true, ordering: .relaxed)
        }
        writer.start()
        try #require(arrived.wait(timeout: .now() + 60) == .success, "the first write never reached the disk")
        try await cache.setValue(second, forKey: "k")
        release.signal()
        await waitUntil { done.load(ordering: .relaxed) }
        let finished = done.load(ordering: .relaxed)
        try #require(finished, "the first write never finished")

        let onDisk = try await cache.diskCache.value(String.self, forKey: "k")
        #expect(onDisk == first, "the first write committed last")
        let inMemory = cache.memoryCache.value(forKey: "k")
        #expect(inMemory == nil || inMemory == onDisk, "memory holds \(inMemory?.prefix(1) ?? "nothing"), the disk \(onDisk?.prefix(1) ?? "nothing")")
        #expect(try await cache.value(forKey: "k") == onDisk)
    }
}
