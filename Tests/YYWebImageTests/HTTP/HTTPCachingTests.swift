import Foundation
import LoopbackHTTPServer
import TestTraits
import Testing
import YYCache

@testable import YYWebImage

/// Freshness, revalidation and retries against a server that answers like a real one.
@Suite(.hangLimit) struct HTTPCachingTests {
    /// Serves `body` with `etag`, answering a matching If-None-Match with 304.
    private static func validating(
        etag: @escaping @Sendable () -> String, body: @escaping @Sendable () -> [UInt8],
        cacheControl: String
    ) -> LoopbackHTTPServer.Handler {
        { request in
            if request.header("If-None-Match") == etag() {
                return .response(status: 304, headers: [("ETag", etag()), ("Cache-Control", cacheControl)])
            }
            return .response(headers: [("ETag", etag()), ("Cache-Control", cacheControl)], body: body())
        }
    }

    @Test func maxAgeZeroRevalidatesWithIfNoneMatchAndA304ReturnsTheStoredBytes() async throws {
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start(
            disk: true, handler: Self.validating(etag: { "\"v1\"" }, body: { png }, cacheControl: "max-age=0"))
        defer { harness.server.stop() }
        let first = try await harness.pipeline.image(for: harness.url("/r.png"))
        #expect(first.source == .network)

        let second = try await harness.restarted().pipeline.image(for: ImageRequest(url: harness.url("/r.png"), options: .returnsOriginalData))
        #expect(second.source == .revalidated)
        #expect(second.statusCode == 304)
        #expect(second.data.map([UInt8].init) == png)
        let requests = harness.server.requests
        #expect(requests.count == 2)
        #expect(requests.first?.header("If-None-Match") == nil)
        #expect(requests.last?.header("If-None-Match") == "\"v1\"")
    }

    @Test func a304RefreshesTheStoredEntry() async throws {
        let png = Fixtures.png()
        // The first answer is stale at once; the 304 says fresh for an hour.
        let handler: LoopbackHTTPServer.Handler = { request in
            request.header("If-None-Match") == "\"a\""
                ? .response(status: 304, headers: [("ETag", "\"a\""), ("Cache-Control", "max-age=3600")])
                : .response(headers: [("ETag", "\"a\""), ("Cache-Control", "no-cache")], body: png)
        }
        let harness = try await PipelineHarness.start(disk: true, handler: handler)
        defer { harness.server.stop() }
        _ = try await harness.pipeline.image(for: harness.url("/s.png"))
        #expect(try await harness.restarted().pipeline.image(for: harness.url("/s.png")).source == .revalidated)
        #expect(try await harness.restarted().pipeline.image(for: harness.url("/s.png")).source == .disk)
        #expect(harness.server.requestCount(path: "/s.png") == 2)
    }

    @Test(arguments: ["max-age=3600", "no-cache"])
    func aCachedOriginalThatIsNoImageIsDroppedAndFetchedAgain(cacheControl: String) async throws {
        // Bytes that are no image under the URL's key (damaged, or written there by other code)
        // failed every load until they went stale; revalidated, a 304 handed them out again.
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start(
            disk: true, handler: Self.validating(etag: { "\"v\"" }, body: { png }, cacheControl: cacheControl))
        defer { harness.server.stop() }
        let url = harness.url("/g.png")
        _ = try await harness.pipeline.image(for: url)
        let disk = try #require(harness.pipeline.configuration.diskCache)
        let key = RequestKeys(ImageRequest(url: url), harness.pipeline.configuration).data
        let record = try #require(try await disk.entry(forKey: key)?.extendedData)
        try await disk.setData(Data("<html>not an image</html>".utf8), forKey: key, extendedData: record)

        let again = try await harness.restarted().pipeline.image(for: ImageRequest(url: url, options: .returnsOriginalData))
        #expect(again.source == .network)
        #expect(again.data.map([UInt8].init) == png)
        #expect(harness.server.requests.last?.header("If-None-Match") == nil)
        #expect(try await disk.data(forKey: key).map([UInt8].init) == png)
    }

    @Test func ifModifiedSinceEchoesLastModified() async throws {
        let png = Fixtures.png()
        let modified = "Tue, 15 Nov 1994 12:45:26 GMT"
        let harness = try await PipelineHarness.start(disk: true) { request in
            request.header("If-Modified-Since") == modified
                ? .response(status: 304)
                : .response(headers: [("Last-Modified", modified), ("Cache-Control", "no-cache")], body: png)
        }
        defer { harness.server.stop() }
        _ = try await harness.pipeline.image(for: harness.url("/m.png"))
        #expect(try await harness.restarted().pipeline.image(for: harness.url("/m.png")).source == .revalidated)
    }

    @Test func aChangedETagReplacesTheEntry() async throws {
        let old = Fixtures.png(width: 10, height: 10), new = Fixtures.png(width: 20, height: 20)
        let version = Version(1)
        let harness = try await PipelineHarness.start(
            disk: true,
            handler: Self.validating(
                etag: { version.current == 1 ? "\"1\"" : "\"2\"" }, body: { version.current == 1 ? old : new }, cacheControl: "max-age=0"))
        defer { harness.server.stop() }
        #expect(try await harness.pipeline.image(for: harness.url("/e.png")).image.pixelWidth == 10)
        version.current = 2
        let changed = try await harness.restarted().pipeline.image(for: harness.url("/e.png"))
        #expect(changed.source == .network)
        #expect(changed.image.pixelWidth == 20)
        // The stored entry now carries the new validator: the next run revalidates to 304.
        let third = try await harness.restarted().pipeline.image(for: harness.url("/e.png"))
        #expect(third.source == .revalidated)
        #expect(third.image.pixelWidth == 20)
        #expect(harness.server.requests.last?.header("If-None-Match") == "\"2\"")
    }

    @Test func noStoreIsNeverWrittenToDisk() async throws {
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start(disk: true) { _ in .response(headers: [("Cache-Control", "no-store")], body: png) }
        defer { harness.server.stop() }
        _ = try await harness.pipeline.image(for: harness.url("/n.png"))
        #expect(try harness.pipeline.configuration.diskCache?.totalCount == 0)
        #expect(try await harness.restarted().pipeline.image(for: harness.url("/n.png")).source == .network)
    }

    @Test func refreshRevalidatesAFreshEntry() async throws {
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start(
            disk: true, handler: Self.validating(etag: { "\"f\"" }, body: { png }, cacheControl: "max-age=3600"))
        defer { harness.server.stop() }
        _ = try await harness.pipeline.image(for: harness.url("/f.png"))
        let refreshed = try await harness.pipeline.image(for: ImageRequest(url: harness.url("/f.png"), options: .refresh))
        #expect(refreshed.source == .revalidated)
        #expect(harness.server.requests.last?.header("If-None-Match") == "\"f\"")
    }

    @Test func expiresAndAgeDecideFreshnessOnAMovingClock() async throws {
        let png = Fixtures.png()
        let now = MovableDate(Date(timeIntervalSince1970: 1_700_000_000))
        let date = "Tue, 14 Nov 2023 22:13:20 GMT"  // == 1_700_000_000
        let expires = "Tue, 14 Nov 2023 22:23:20 GMT"  // 600 s later
        let harness = try await PipelineHarness.start(disk: true, configure: { $0.now = { now.value } }) { request in
            request.header("If-None-Match") != nil
                ? .response(status: 304, headers: [("ETag", "\"x\"")])
                : .response(headers: [("Date", date), ("Expires", expires), ("Age", "100"), ("ETag", "\"x\"")], body: png)
        }
        defer { harness.server.stop() }
        _ = try await harness.pipeline.image(for: harness.url("/x.png"))
        now.value += 499  // fresh for 600 − 100 seconds
        #expect(try await harness.restarted().pipeline.image(for: harness.url("/x.png")).source == .disk)
        now.value += 2
        #expect(try await harness.restarted().pipeline.image(for: harness.url("/x.png")).source == .revalidated)
    }

    @Test func a304WithoutAStoredEntryIsAnError() async throws {
        let harness = try await PipelineHarness.start(disk: true) { _ in .response(status: 304) }
        defer { harness.server.stop() }
        #expect(await harness.error(loading: "/304.png") == .statusCode(304))
    }

    @Test(arguments: [429, 503]) func retryAfterInSecondsIsHonouredOnceForAllWaiters(status: Int) async throws {
        let png = Fixtures.png()
        let clock = RecordingClock()
        let attempts = Version()
        let harness = try await PipelineHarness.start(configure: { $0.clock = clock }) { _ in
            attempts.current += 1
            return attempts.current == 1 ? .response(status: status, headers: [("Retry-After", "7")]) : .response(body: png)
        }
        defer { harness.server.stop() }
        let url = harness.url("/retry.png")
        async let first = harness.pipeline.image(for: url)
        async let second = harness.pipeline.image(for: url)
        let responses = try await [first, second]
        #expect(responses.allSatisfy { $0.source == .network })
        #expect(harness.server.requestCount(path: "/retry.png") == 2)
        #expect(clock.sleeps == [.seconds(7)])
    }

    @Test func retryAfterAsAnHTTPDateIsHonoured() async throws {
        let png = Fixtures.png()
        let clock = RecordingClock()
        let attempts = Version()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let harness = try await PipelineHarness.start(configure: {
            $0.clock = clock; $0.now = { now }
        }) { _ in
            attempts.current += 1
            return attempts.current == 1
                ? .response(status: 503, headers: [("Retry-After", "Tue, 14 Nov 2023 22:13:25 GMT")])  // now + 5 s
                : .response(body: png)
        }
        defer { harness.server.stop() }
        #expect(try await harness.pipeline.image(for: harness.url("/date.png")).source == .network)
        #expect(attempts.current == 2)
        #expect(clock.sleeps == [.seconds(5)])
    }

    @Test func aSecondRefusalOrATooLongRetryAfterFails() async throws {
        let clock = RecordingClock()
        let harness = try await PipelineHarness.start(configure: { $0.clock = clock }) { request in
            request.path == "/always.png"
                ? .response(status: 503, headers: [("Retry-After", "1")])
                : .response(status: 429, headers: [("Retry-After", "3600")])
        }
        defer { harness.server.stop() }
        #expect(await harness.error(loading: "/always.png") == .statusCode(503))
        #expect(harness.server.requestCount(path: "/always.png") == 2)
        #expect(await harness.error(loading: "/later.png") == .statusCode(429))
        #expect(harness.server.requestCount(path: "/later.png") == 1)
        #expect(clock.sleeps == [.seconds(1)])
    }
}

extension HTTPCachingTests {
    @Test func aRetryAfterThatEndsPastTheRequestTimeoutFailsAtOnce() async throws {
        let clock = RecordingClock()
        let harness = try await PipelineHarness.start(configure: {
            $0.clock = clock
            $0.requestTimeout = .seconds(10)
        }) { _ in .response(status: 503, headers: [("Retry-After", "20")]) }
        defer { harness.server.stop() }
        #expect(await harness.error(loading: "/later.png") == .statusCode(503))
        #expect(harness.server.requestCount(path: "/later.png") == 1)
        #expect(clock.sleeps.isEmpty)
    }
}

/// A counter the server's handler and the test share.
final class Version: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var value: Int
    init(_ value: Int = 0) { self.value = value }
    var current: Int {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// A wall-clock time the test moves.
final class MovableDate: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var date: Date
    init(_ date: Date) { self.date = date }
    var value: Date {
        get { lock.withLock { date } }
        set { lock.withLock { date = newValue } }
    }
}

/// A clock whose sleeps return at once and are recorded: the test reads which delays the
/// pipeline asked for instead of waiting them out.
final class RecordingClock: Clock, @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var recorded: [Duration] = []

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .zero }
    /// The delays asked for, in order.
    var sleeps: [Duration] { lock.withLock { recorded } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        lock.withLock {
            recorded.append(current.duration(to: deadline))
            current = max(current, deadline)
        }
        try Task.checkCancellation()
    }
}
