import Foundation
import NIOCore
import TestSupport
import TestTraits
import Testing

@testable import YYCacheRedis

@Suite(.needsRedisServer, .hangLimit) struct CrossProcessFillTests {
    let folder = TemporaryDirectory("cross-process-fill")
    let server: RedisServer
    let client: RedisClient
    let worker: String

    init() throws {
        server = try RedisServer()
        client = try makeClient([server.url])
        worker = try #require(BuildProducts.executable("redis-fill-worker"), "build the helper first: swift build --build-tests")
    }

    private func fills() async throws -> Int64 {
        switch try await client.send(RedisCommand("GET", ["fills"])) {
        case .bulkString(let count?): Int64(String(buffer: count)) ?? -1
        default: 0
        }
    }

    @Test func fourProcessesOfFiftyCallersEachRunTheFillOnce() async throws {
        let processes = try (0..<4).map { index in
            try ChildProcess(worker, [server.url, folder.appending("process-\(index)"), "report", "50", "10000"])
        }
        let outputs = processes.map { $0.wait() }
        for output in outputs {
            #expect(output.status == 0, "\(output.standardError)")
        }
        let values = Set(outputs.map(\.text))
        #expect(values.count == 1, "every caller of every process got the same value: \(values)")
        #expect(values.first?.hasPrefix("filled by process") == true)
        #expect(try await fills() == 1)
    }

    @Test func aFillerKilledWhileHoldingTheLockHoldsTheOthersUpOnlyUntilTheLockExpires() async throws {
        let lockMilliseconds = 2_000
        let hanging = try ChildProcess(worker, [server.url, folder.appending("hanging"), "report", "1", String(lockMilliseconds), "--hang"])
        // Wait for the event: the hanging process has taken the lock and started its fill.
        let deadline = ContinuousClock.now + .seconds(30)
        while try await fills() == 0 {
            try #require(ContinuousClock.now < deadline, "the hanging worker never started its fill")
            try await Task.sleep(for: .milliseconds(10))
        }
        hanging.kill()
        _ = hanging.wait()
        let killedAt = ContinuousClock.now
        let output = try ChildProcess.run(worker, [server.url, folder.appending("next"), "report", "50", String(lockMilliseconds)])
        let waited = ContinuousClock.now - killedAt
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.text.hasPrefix("filled by process"))
        #expect(try await fills() == 2, "the next process filled once the lock expired")
        // Liveness, not speed: the lock's expiry plus a wide margin for a loaded machine (without
        // the expiry it would wait forever).
        #expect(waited < .milliseconds(lockMilliseconds) + .seconds(15))
    }
}
