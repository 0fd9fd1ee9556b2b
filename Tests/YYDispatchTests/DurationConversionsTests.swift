import Testing

@testable import YYDispatch

@Suite struct DurationConversionsTests {
    @Test func wholeNanosecondsTruncatedTowardZero() {
        #expect(Duration.seconds(1).saturatingNanoseconds == 1_000_000_000)
        #expect((Duration.seconds(2) + .nanoseconds(5)).saturatingNanoseconds == 2_000_000_005)
        #expect(Duration.milliseconds(-1500).saturatingNanoseconds == -1_500_000_000)
        #expect(Duration.zero.saturatingNanoseconds == 0)
    }

    @Test func bothStepsSaturateInsteadOfTrapping() {
        #expect(Duration.seconds(Int64.max).saturatingNanoseconds == .max)
        #expect(Duration.seconds(Int64.min).saturatingNanoseconds == .min)
        // 9,223,372,036 s fits; its fraction carries the sum past Int64.max.
        #expect(Duration.seconds(9_223_372_036).saturatingNanoseconds == 9_223_372_036_000_000_000)
        #expect((Duration.seconds(9_223_372_036) + .milliseconds(900)).saturatingNanoseconds == .max)
        #expect((Duration.seconds(-9_223_372_036) - .milliseconds(900)).saturatingNanoseconds == .min)
    }

    @Test func wholeMillisecondsTruncatedTowardZeroAndSaturating() {
        #expect((Duration.seconds(2) + .microseconds(1999)).saturatingMilliseconds == 2_001)
        #expect(Duration.microseconds(-1500).saturatingMilliseconds == -1)
        #expect(Duration.seconds(Int64.max).saturatingMilliseconds == .max)
        #expect(Duration.seconds(Int64.min).saturatingMilliseconds == .min)
        // Past Int64 nanoseconds, milliseconds are still exact.
        #expect(Duration.seconds(10_000_000_000).saturatingMilliseconds == 10_000_000_000_000)
    }

    @Test func secondsAsADouble() {
        #expect(Duration.milliseconds(1500).inSeconds == 1.5)
        #expect(Duration.seconds(-2).inSeconds == -2)
    }
}
