import Testing

@testable import YYDispatch

@Suite struct DurationSaturatingNanosecondsTests {
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
}
