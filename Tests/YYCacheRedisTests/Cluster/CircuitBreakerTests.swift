import Testing

@testable import YYCacheRedis

@Suite struct CircuitBreakerTests {
    var breaker = CircuitBreaker(initialBackoff: .seconds(1), maximumBackoff: .seconds(4), probeTimeout: .milliseconds(500))

    @Test mutating func aFailureSkipsTheNodeForTheBackoffThenAdmitsOneProbe() {
        var admitted: Bool
        admitted = breaker.admits(at: .zero)
        #expect(admitted)
        breaker.recordFailure(at: .zero)
        #expect(breaker.isOpen)
        admitted = breaker.admits(at: .milliseconds(999))
        #expect(!admitted)
        admitted = breaker.admits(at: .seconds(1))
        #expect(admitted)
        admitted = breaker.admits(at: .seconds(1))
        #expect(!admitted, "a second request while the probe is out")
        breaker.recordSuccess()
        #expect(!breaker.isOpen)
        admitted = breaker.admits(at: .seconds(1))
        #expect(admitted)
    }

    @Test mutating func repeatedFailuresDoubleTheBackoffUpToTheMaximum() {
        var admitted: Bool
        var now = Duration.zero
        var waits: [Duration] = []
        for _ in 0..<4 {
            admitted = breaker.admits(at: now)
            #expect(admitted)
            breaker.recordFailure(at: now)
            guard case .open(let until) = breaker.state else { Issue.record("not open"); return }
            waits.append(until - now)
            now = until
        }
        #expect(waits == [.seconds(1), .seconds(2), .seconds(4), .seconds(4)])
        #expect(breaker.openings == 4)
        breaker.recordSuccess()
        #expect(breaker.backoff == .seconds(1))
    }

    @Test mutating func aProbeThatNeverAnswersLetsAnotherTryAfterTheProbeTimeout() {
        var admitted: Bool
        breaker.recordFailure(at: .zero)
        admitted = breaker.admits(at: .seconds(1))
        #expect(admitted)
        admitted = breaker.admits(at: .milliseconds(1_499))
        #expect(!admitted)
        admitted = breaker.admits(at: .milliseconds(1_500))
        #expect(admitted)
    }

    @Test mutating func aLateFailureOfARequestSentBeforeTheCircuitOpenedDoesNotExtendIt() {
        breaker.recordFailure(at: .zero)
        breaker.recordFailure(at: .milliseconds(100))
        #expect(breaker.state == .open(until: .seconds(1)))
        #expect(breaker.openings == 1)
    }
}
