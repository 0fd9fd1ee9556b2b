import Testing

@testable import YYImage

@Suite struct AnimationTimelineTests {
    /// Durations of irregular lengths (in whole microseconds, so their nanoseconds are exact).
    static func irregularDurations(_ count: Int) -> [Double] {
        (0..<count).map { Double(10_000 + ($0 * 7_919) % 90_000) / 1_000_000 }
    }

    @Test func framesStartAtTheCumulativeDurationsWithoutDriftOverTenThousandFrames() {
        let durations = Self.irregularDurations(10_000)
        let timeline = AnimationTimeline(durations: durations, loopCount: 0)
        var cumulative: Int64 = 0  // nanoseconds, added up independently of the timeline
        for index in 0..<durations.count {
            let start = Duration.nanoseconds(cumulative)
            #expect(timeline.start(ofFrame: index) == start)
            let atStart = timeline.position(at: start)
            #expect(atStart.frameIndex == index)
            #expect(atStart.loop == 0)
            if index > 0 { #expect(timeline.position(at: start - .nanoseconds(1)).frameIndex == index - 1) }
            cumulative += Int64((durations[index] * 1e9).rounded())
            #expect(atStart.nextChange == .nanoseconds(cumulative))
        }
        #expect(timeline.loopDuration == .nanoseconds(cumulative))
        // The second loop starts exactly one loop duration later.
        let second = timeline.position(at: .nanoseconds(cumulative + 1))
        #expect(second.frameIndex == 0)
        #expect(second.loop == 1)
    }

    @Test func finishesOnTheLastFrameAfterItsLoops() {
        let timeline = AnimationTimeline(durations: [0.1, 0.2, 0.3], loopCount: 2)
        #expect(
            timeline.position(at: .milliseconds(1_199))
                == .init(
                    frameIndex: 2, loop: 1, isFinished: false,
                    nextChange: .milliseconds(1_200)))
        #expect(timeline.position(at: .milliseconds(1_200)) == .init(frameIndex: 2, loop: 1, isFinished: true, nextChange: nil))
        #expect(timeline.position(at: .seconds(100)).isFinished)
    }

    @Test func zeroLoopsPlayForever() {
        let timeline = AnimationTimeline(durations: [0.1, 0.1], loopCount: 0)
        let far = timeline.position(at: .seconds(1_000_000) + .milliseconds(150))
        #expect(far.frameIndex == 1)
        #expect(far.loop == 5_000_000)
        #expect(!far.isFinished)
    }

    @Test func rateScalesElapsedTime() {
        let timeline = AnimationTimeline(durations: [0.1, 0.1, 0.1], loopCount: 1, rate: 2)
        #expect(timeline.position(at: .milliseconds(49)).frameIndex == 0)
        #expect(timeline.position(at: .milliseconds(50)).frameIndex == 1)
        #expect(timeline.position(at: .milliseconds(50)).nextChange == .milliseconds(100))
        #expect(timeline.position(at: .milliseconds(150)).isFinished)
        let slow = timeline.withRate(0.5)
        #expect(slow.position(at: .milliseconds(199)).frameIndex == 0)
        #expect(slow.position(at: .milliseconds(200)).frameIndex == 1)
        #expect(slow.start(ofFrame: 2) == .milliseconds(400))
    }

    @Test func rateIsClampedAndNaNMeansOne() {
        #expect(AnimationTimeline(durations: [1], loopCount: 0, rate: .nan).rate == 1)
        #expect(AnimationTimeline(durations: [1], loopCount: 0, rate: 0).rate == AnimationTimeline.rateRange.lowerBound)
        #expect(AnimationTimeline(durations: [1], loopCount: 0, rate: -3).rate == AnimationTimeline.rateRange.lowerBound)
        #expect(AnimationTimeline(durations: [1], loopCount: 0, rate: .infinity).rate == AnimationTimeline.rateRange.upperBound)
    }

    @Test func zeroNegativeAndNaNDurationsGetTheMinimum() {
        let timeline = AnimationTimeline(durations: [0, -1, .nan, 0.5], loopCount: 1)
        #expect(timeline.frameNanoseconds == [1_000_000, 1_000_000, 1_000_000, 500_000_000])
        // No durations at all: one frame of the minimum length.
        #expect(AnimationTimeline(durations: [], loopCount: 0).frameCount == 1)
    }

    @Test func aStillImageNeverChangesAndOneFrameChangesOnlyAtTheEnd() {
        #expect(AnimationTimeline(durations: [0.1], loopCount: 0).position(at: .seconds(5)).nextChange == nil)
        let thrice = AnimationTimeline(durations: [0.1], loopCount: 3)
        #expect(thrice.position(at: .milliseconds(10)).nextChange == .milliseconds(300))
    }

    @Test func extremeLoopCountsTimesAndRatesSaturateInsteadOfTrapping() {
        let bound = Duration.nanoseconds(AnimationTimeline.bound)
        // A still played Int.max times changes once, at the end of time.
        let still = AnimationTimeline(durations: [0.1], loopCount: .max)
        #expect(still.position(at: .zero).nextChange == .nanoseconds(Int64.max))
        #expect(still.start(ofFrame: 0, loop: .max) == .nanoseconds(Int64.max))
        for rate in [AnimationTimeline.rateRange.lowerBound, 1, AnimationTimeline.rateRange.upperBound] {
            let timeline = AnimationTimeline(durations: [0.1, 0.2], loopCount: .max, rate: rate)
            for elapsed in [Duration.seconds(Int64.max), .seconds(9_223_372_036) + .milliseconds(900), bound] {
                let position = timeline.position(at: elapsed)
                #expect(!position.isFinished, "rate \(rate), \(elapsed)")
                #expect((position.nextChange ?? .zero) >= .zero, "rate \(rate), \(elapsed)")
            }
            #expect(timeline.start(ofFrame: 1, loop: .max) <= .nanoseconds(Int64.max), "rate \(rate)")
        }
        // 200,000 frames of a day each: longer than Int64's nanoseconds hold, in sum.
        let long = AnimationTimeline(durations: Array(repeating: 86_400, count: 200_000), loopCount: 1)
        #expect(long.position(at: .seconds(86_400 * 3 + 1)).frameIndex == 3)
        #expect(long.loopDuration == .nanoseconds(Int64.max))
    }

    @Test func negativeElapsedTimeIsTheStart() {
        let timeline = AnimationTimeline(durations: [0.1, 0.1], loopCount: 0)
        #expect(timeline.position(at: .seconds(-3)).frameIndex == 0)
    }

    @Test func takesTheImagesDurationsAfterItsRuleAndItsLoopCount() throws {
        let sheet = TestImages.solid(4, 1, RGBA(1, 2, 3, 255))
        let rects = (0..<4).map { PixelRect(x: $0, y: 0, width: 1, height: 1) }
        let image = try SpriteSheetImage(sheet: sheet, contentRects: rects, frameDurations: [0.005, 0.05, 0, 0.2], loopCount: 3)
        let timeline = AnimationTimeline(image: image)
        #expect(timeline.frameNanoseconds == [100_000_000, 50_000_000, 100_000_000, 200_000_000])
        #expect(timeline.loopCount == 3)
        #expect(AnimationTimeline(image: image, loopCount: 0).loopCount == 0)
    }
}
