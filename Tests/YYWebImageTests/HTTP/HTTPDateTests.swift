import Foundation
import Testing

@testable import YYWebImage

/// HTTP dates in the three forms RFC 9110 makes recipients accept, and what is no date.
struct HTTPDateTests {
    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",  // IMF-fixdate
        "Sunday, 06-Nov-94 08:49:37 GMT",  // RFC 850
        "Sun Nov  6 08:49:37 1994",  // asctime
    ])
    func everyFormParsesToTheSameInstant(text: String) {
        #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test func aLeapDayAndTheYear2038Parse() {
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(HTTPDate.parse("Tue, 19 Jan 2038 03:14:08 GMT") == Date(timeIntervalSince1970: 2_147_483_648))
    }

    @Test(arguments: [
        "0", "-1", "", "yesterday", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
        "Fri, 31 Nov 2023 10:00:00 GMT",
        // A year the calendar would wrap round to year 1, and signs or digits where none belong.
        "Sun, 06 Nov 9223372036854775807 08:49:37 GMT", "Sun, 06 Nov 19940 08:49:37 GMT",
        "Sun, +6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 +8:49:37 GMT", "Sun Nov  6 08:49:37 94",
    ])
    func textThatIsNoDateGivesNil(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}

/// Freshness and validators from response headers (RFC 9111 §4.2).
struct StoredResponseTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    private func record(_ headers: HTTPHeaderFields) -> StoredResponse? {
        StoredResponse(statusCode: 200, headers: headers, now: now, defaultLifetime: 86_400)
    }

    @Test func maxAgeWinsOverExpiresAndAgeIsSubtracted() throws {
        let stored = try #require(record(["Cache-Control": "public, max-age=600", "Expires": "Thu, 01 Jan 1970 00:00:00 GMT", "Age": "100"]))
        #expect(stored.freshUntil == now.addingTimeInterval(500))
    }

    @Test func noStoreIsNotStoredAndNoCacheIsStaleAtOnce() throws {
        #expect(record(["Cache-Control": "no-store"]) == nil)
        let stored = try #require(record(["Cache-Control": "no-cache, max-age=600", "ETag": "\"e\""]))
        #expect(stored.needsRevalidation(at: now))
        #expect(stored.validatorHeaders["If-None-Match"] == "\"e\"")
    }

    @Test func anUnreadableExpiresIsAlreadyExpired() throws {
        #expect(try #require(record(["Expires": "0"])).needsRevalidation(at: now))
    }

    @Test func lastModifiedGivesATenthOfItsAgeAtMostADay() throws {
        let tenDaysAgo = "Sat, 04 Nov 2023 22:13:20 GMT"
        let stored = try #require(record(["Date": "Tue, 14 Nov 2023 22:13:20 GMT", "Last-Modified": tenDaysAgo]))
        #expect(stored.freshUntil == now.addingTimeInterval(86_400))
        #expect(stored.validatorHeaders["If-Modified-Since"] == tenDaysAgo)
        let hourAgo = try #require(record(["Date": "Tue, 14 Nov 2023 22:13:20 GMT", "Last-Modified": "Tue, 14 Nov 2023 21:13:20 GMT"]))
        #expect(hourAgo.freshUntil == now.addingTimeInterval(360))
    }

    @Test func aResponseThatSaysNothingIsFreshForTheDefault() throws {
        #expect(try #require(record([:])).freshUntil == now.addingTimeInterval(86_400))
    }

    @Test func aMalformedMaxAgeMeansStale() throws {
        #expect(try #require(record(["Cache-Control": "max-age=soon"])).needsRevalidation(at: now))
    }

    @Test func a304KeepsTheOldValidatorsUnlessItSendsNewOnes() throws {
        let stored = try #require(record(["ETag": "\"1\"", "Cache-Control": "no-cache"]))
        let same = try #require(stored.refreshed(by: ["Cache-Control": "max-age=60"], now: now, defaultLifetime: 0))
        #expect(same.etag == "\"1\"")
        #expect(same.freshUntil == now.addingTimeInterval(60))
        let changed = try #require(stored.refreshed(by: ["ETag": "\"2\""], now: now, defaultLifetime: 0))
        #expect(changed.etag == "\"2\"")
        #expect(stored.refreshed(by: ["Cache-Control": "no-store"], now: now, defaultLifetime: 0) == nil)
    }
}
