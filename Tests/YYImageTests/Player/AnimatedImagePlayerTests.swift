import Clocks
import Foundation
import TestSupport
import TestTraits
import Testing
import YYDispatch

@testable import YYImage

/// Playback against a test clock: frame times, lateness, loops, rate, seeking and pausing.
@Suite(.hangLimit) struct AnimatedImagePlayerTests {
    // Ten thousand test-clock steps take seconds alone and minutes beside the other suites.
    @Test func emitsEveryFrameAtItsAuthoredCumulativeTimeOverTenThousandFrames() async throws {
        let durations = AnimationTimelineTests.irregularDurations(10_000)
        let image = CountingAnimation(durations: durations, loopCount: 1)
        var harness = PlayerHarness(image: image, budget: 64 * image.bytesPerFrame)
        harness.player.play()
        let first = try await harness.nextFrame()
        #expect(first.index == 0)
        #expect(first.shownAt == harness.start)
        var cumulative: Int64 = 0  // nanoseconds, added up here independently of the player
        for index in 1..<durations.count {
            cumulative += Int64((durations[index - 1] * 1e9).rounded())
            let change = try await harness.frame(at: .nanoseconds(cumulative))
            #expect(change.index == index, "frame \(index)")
            #expect(change.dueAt == harness.at(.nanoseconds(cumulative)), "frame \(index) due")
            #expect(change.shownAt == change.dueAt, "frame \(index) shown")
            #expect(change.contents.bitmap[0, 0] == CountingAnimation.color(of: index))
        }
        cumulative += Int64((durations[durations.count - 1] * 1e9).rounded())
        await harness.clock.advance(to: harness.at(.nanoseconds(cumulative)))
        guard case .finished = try await harness.nextEvent() else { Issue.record("no end after one loop"); return }
        #expect(harness.player.status == .finished)
        #expect(harness.player.statistics.lateFrames == 0)
        #expect(harness.player.statistics.framesShown == durations.count)
    }

    /// Frame 1's decode is held while the clock passes 350 ms of 100 ms frames.
    private func playWithALateSecondFrame(_ policy: PlayerLatenessPolicy) async throws -> PlayerHarness {
        let image = CountingAnimation(frameCount: 10)
        let gate = image.hold(frame: 1)
        var harness = PlayerHarness(image: image, policy: policy)
        harness.player.play()
        #expect(try await harness.nextFrame().index == 0)
        await wait(for: gate.entered)  // the decoder is inside frame 1
        await harness.clock.advance(to: harness.at(.milliseconds(100)))
        await harness.player.buffer.waitUntil(misses: 1)  // the player waits for frame 1
        await harness.clock.advance(to: harness.at(.milliseconds(350)))
        gate.release.signal()
        return harness
    }

    @Test func holdShowsEveryFrameAndALateFrameDelaysTheRest() async throws {
        var harness = try await playWithALateSecondFrame(.hold)
        let late = try await harness.nextFrame()
        #expect(late.index == 1)
        #expect(late.dueAt == harness.at(.milliseconds(100)))
        #expect(late.shownAt == harness.at(.milliseconds(350)))
        let next = try await harness.frame(at: .milliseconds(450))
        #expect(next.index == 2)
        #expect(next.dueAt == harness.at(.milliseconds(450)))
        #expect(next.shownAt == next.dueAt)
        #expect(try await harness.frame(at: .milliseconds(550)).index == 3)
        let statistics = harness.player.statistics
        #expect(statistics.lateFrames == 1)
        #expect(statistics.framesSkipped == 0)
        #expect(statistics.maximumLateness == .milliseconds(250))
    }

    @Test func skipKeepsToTheClockAndPassesOverFramesWhoseTimeWent() async throws {
        var harness = try await playWithALateSecondFrame(.skip)
        // When frame 1 is ready at 350 ms, frames 1 and 2 have had their time: frame 3 shows,
        // as due at 300 ms, and the schedule is not moved.
        let caughtUp = try await harness.nextFrame()
        #expect(caughtUp.index == 3)
        #expect(
            caughtUp.dueAt == harness.at(.milliseconds(300))
                && caughtUp.shownAt == harness.at(.milliseconds(350)))
        let next = try await harness.frame(at: .milliseconds(400))
        #expect(next.index == 4)
        #expect(next.shownAt == harness.at(.milliseconds(400)))
        #expect(harness.player.statistics.framesSkipped == 2)
        #expect(harness.player.statistics.lateFrames == 1)
    }

    @Test func playsItsLoopsThenStaysOnTheLastFrame() async throws {
        var harness = PlayerHarness(image: CountingAnimation(frameCount: 3, loopCount: 2))
        harness.player.play()
        var seen: [[Int]] = [[try await harness.nextFrame().index, 0]]
        for step in 1..<6 {
            let change = try await harness.frame(at: .milliseconds(100 * step))
            seen.append([change.index, change.loop])
        }
        #expect(seen == [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1]])
        await harness.clock.advance(to: harness.at(.milliseconds(600)))
        guard case .finished = try await harness.nextEvent() else { Issue.record("no end"); return }
        #expect(harness.player.status == .finished)
        #expect(harness.player.currentFrameIndex == 2)
        try await harness.clock.checkSuspension()  // nothing left to wake for
        // Playing again starts over.
        harness.player.play()
        #expect(try await harness.nextFrame().index == 0)
    }

    @Test func loopCountOverrideEndsAForeverAnimation() async throws {
        var harness = PlayerHarness(image: CountingAnimation(frameCount: 2, loopCount: 0))
        harness.player.loopCountOverride = 1
        harness.player.play()
        #expect(try await harness.nextFrame().index == 0)
        #expect(try await harness.frame(at: .milliseconds(100)).index == 1)
        await harness.clock.advance(to: harness.at(.milliseconds(200)))
        guard case .finished = try await harness.nextEvent() else { Issue.record("no end"); return }
    }

    @Test func rateTwoShowsFramesTwiceAsOftenAndAChangeKeepsThePosition() async throws {
        var harness = PlayerHarness(image: CountingAnimation(frameCount: 10))
        harness.player.rate = 2
        harness.player.play()
        #expect(try await harness.nextFrame().index == 0)
        #expect(try await harness.frame(at: .milliseconds(50)).index == 1)
        #expect(try await harness.frame(at: .milliseconds(100)).index == 2)
        // At 125 ms half of frame 2 has played; at rate 1 the other half takes 50 ms.
        await harness.clock.advance(to: harness.at(.milliseconds(125)))
        harness.player.rate = 1
        let next = try await harness.frame(at: .milliseconds(175))
        #expect(next.index == 3)
        #expect(next.dueAt == harness.at(.milliseconds(175)))
    }

    @Test func pauseAndResumeContinueTheFrameWithNoJump() async throws {
        var harness = PlayerHarness(image: CountingAnimation(frameCount: 4))
        harness.player.play()
        #expect(try await harness.nextFrame().index == 0)
        await harness.clock.advance(to: harness.at(.milliseconds(30)))
        harness.player.pause()
        #expect(harness.player.status == .paused)
        await harness.clock.advance(to: harness.at(.seconds(10)))
        try await harness.clock.checkSuspension()  // a paused player sleeps on nothing
        harness.player.play()
        // 70 ms of frame 0 were left.
        let next = try await harness.frame(at: .seconds(10) + .milliseconds(70))
        #expect(next.index == 1)
        #expect(next.dueAt == harness.at(.seconds(10) + .milliseconds(70)))
    }

    @Test func seekingShowsTheFrameNowAndContinuesFromIt() async throws {
        var harness = PlayerHarness(image: CountingAnimation(frameCount: 10))
        harness.player.play()
        #expect(try await harness.nextFrame().index == 0)
        await harness.clock.advance(to: harness.at(.milliseconds(40)))
        harness.player.currentFrameIndex = 7
        let sought = try await harness.nextFrame()
        #expect(sought.index == 7)
        #expect(sought.shownAt == harness.at(.milliseconds(40)))
        #expect(harness.player.currentFrameIndex == 7)
        let next = try await harness.frame(at: .milliseconds(140))
        #expect(next.index == 8)
        // Seeking while paused shows the frame and stays paused.
        harness.player.pause()
        harness.player.seek(toFrame: 2)
        #expect(try await harness.nextFrame().index == 2)
        #expect(harness.player.status == .paused)
        // Out of range is clamped.
        harness.player.seek(toFrame: 99)
        #expect(try await harness.nextFrame().index == 9)
    }

    @Test func aStillImageShowsOnceAndNeverWakes() async throws {
        var harness = PlayerHarness(image: CountingAnimation(frameCount: 1))
        harness.player.play()
        #expect(try await harness.nextFrame().index == 0)
        await harness.player.buffer.waitUntilIdle()
        try await harness.clock.checkSuspension()
    }

    @Test func betweenFramesThePlayerSleepsOnOneDeadline() async throws {
        var harness = PlayerHarness(image: CountingAnimation(frameCount: 3))
        harness.player.play()
        _ = try await harness.nextFrame()
        await harness.clock.advance(to: harness.at(.milliseconds(99)))
        // Not due yet: the clock still holds the player's one sleep, and no frame came.
        await #expect(throws: (any Error).self) { try await harness.clock.checkSuspension() }
        #expect(harness.player.statistics.framesShown == 1)
    }

    @Test func spriteSheetFramesAreTheSheetAndTheirRectangle() async throws {
        let sheet = TestImages.bitmap(4, 2) { x, _ in CountingAnimation.color(of: x) }
        let rects = (0..<4).map { PixelRect(x: $0, y: 0, width: 1, height: 2) }
        let image = try SpriteSheetImage(sheet: sheet, contentRects: rects, frameDurations: [0.1, 0.1, 0.1, 0.1])
        var harness = PlayerHarness(image: image)
        harness.player.play()
        _ = try await harness.nextFrame()
        _ = try await harness.frame(at: .milliseconds(100))
        let change = try await harness.frame(at: .milliseconds(200))
        #expect(change.index == 2)
        #expect(change.contents.bitmap == sheet)
        #expect(change.contents.contentsRect == UnitRect(x: 0.5, y: 0, width: 0.25, height: 1))
        let visible = change.contents.visibleBitmap()
        #expect(visible.width == 1)
        #expect(visible.height == 2)
        #expect(visible[0, 1] == CountingAnimation.color(of: 2))
        #expect(harness.player.statistics.buffer.bytesHeld == 0)  // the sheet belongs to the image
    }
}

/// Real-time playback: the continuous clock and the process's player timer thread.
@Suite(.hangLimit) struct RealTimePlaybackTests {
    @Test func continuousClockPlayersTellObserversOnTheTimerThread() async throws {
        // Under `.hold` no frame is passed over, however slow the first decode.
        let player = AnimatedImagePlayer(image: CountingAnimation(frameCount: 3, duration: 0.02, loopCount: 1))
        let (threads, record) = AsyncStream.makeStream(of: String.self)
        player.addObserver { event in
            switch event {
            case .frame: record.yield(currentThreadName())
            case .finished: record.finish()
            }
        }
        player.play()
        var names: [String] = []
        for await name in threads { names.append(name) }
        #expect(names == Array(repeating: PlaybackTimerThread.threadName, count: 3))
    }

    @Test func eightRealTimePlayersOnTwoImagesPlaySeekAndTrimConcurrently() async throws {
        let images = (0..<2).map { CountingAnimation(frameCount: 20 + 7 * $0, duration: 0.005) }
        let players = (0..<8).map { index in
            AnimatedImagePlayer(
                image: images[index % 2], latenessPolicy: index % 2 == 0 ? .hold : .skip,
                bufferBudget: (6 + index) * images[index % 2].bytesPerFrame)
        }
        let shown = Locked([Int](repeating: 0, count: players.count))
        for (index, player) in players.enumerated() {
            player.addObserver { event in
                if case .frame = event { shown.withLock { $0[index] += 1 } }
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for (index, player) in players.enumerated() {
                group.addTask {
                    var random = SplitMix64(seed: UInt64(index + 1))
                    player.play()
                    for _ in 0..<300 {
                        switch random.next() % 8 {
                        case 0: player.seek(toFrame: Int(random.next() % 30))
                        case 1: player.pause()
                        case 2: player.trim()
                        case 3: player.rate = Double(random.next() % 4 + 1) / 2
                        case 4: _ = player.statistics
                        default: player.play()
                        }
                        await Task.yield()
                    }
                }
            }
        }
        for player in players { player.stop() }
        // After the storm each player still shows the frame it is sent to, on the timer thread.
        for player in players {
            let (frames, record) = AsyncStream.makeStream(of: Int.self)
            let observer = player.addObserver { event in
                if case .frame(let change) = event { record.yield(change.index) }
            }
            player.seek(toFrame: 3)
            var iterator = frames.makeAsyncIterator()
            #expect(await iterator.next() == 3)
            player.removeObserver(observer)
            player.stop()
        }
        for player in players { await player.buffer.waitUntilIdle() }
        for player in players { #expect(player.statistics.buffer.bytesHeld == 0) }
        #expect(shown.withLock { $0.allSatisfy { $0 > 0 } })
    }
}
