import Testing

@testable import YYWebImage

/// The pipeline's memory of failed URLs (`failedURLMemory`).
@Suite struct FailedURLTableTests {
    @Test func aFailureIsRememberedUntilItsTimeAndThenForgotten() {
        var table = FailedURLTable()
        let start = ContinuousClock.now
        table.remember(.statusCode(404), forKey: "a", until: start + .seconds(60), now: start)
        #expect(table.failure(forKey: "a", now: start + .seconds(59)) == .statusCode(404))
        #expect(table.failure(forKey: "b", now: start) == nil)
        #expect(table.failure(forKey: "a", now: start + .seconds(60)) == nil)
        #expect(table.count == 0)
    }

    @Test func failuresThatExpiredAreSweptThoughNobodyAsksForThemAgain() {
        var table = FailedURLTable()
        let start = ContinuousClock.now
        // A URL a second fails, each remembered for a minute and never asked for again: only
        // entries looked up were dropped, and all 5,000 stayed.
        for index in 0..<5_000 {
            let now = start + .seconds(index)
            table.remember(.statusCode(404), forKey: "u\(index)", until: now + .seconds(60), now: now)
        }
        // At most 60 are live at once; a sweep runs when the table reaches 1,024.
        #expect(table.count <= 1_024)
        let end = start + .seconds(4_999)
        #expect(table.failure(forKey: "u4999", now: end) == .statusCode(404))
        #expect(table.failure(forKey: "u4940", now: end) == .statusCode(404))
        #expect(table.failure(forKey: "u4939", now: end) == nil)
    }
}
