import Clocks
import TestSupport
import TestTraits
import Testing
import YYDispatch

@testable import YYImage

/// The shared frame buffer under players: decodes, budgets, trimming, cancellation.
@Suite(.hangLimit) struct FrameBufferTests {
    /// Plays `harnesses` (all on one clock) in step for `frames` frame changes of 100 ms each.
    private func playInStep(
        _ harnesses: inout [PlayerHarness], frames: Int,
        afterEachFrame check: (PlayerHarness) -> Void = { _ in }
    ) async throws {
        for index in harnesses.indices { harnesses[index].player.play() }
        for index in harnesses.indices { _ = try await harnesses[index].nextFrame() }
        for step in 1..<frames {
            await harnesses[0].clock.advance(to: harnesses[0].at(.milliseconds(100 * step)))
            for index in harnesses.indices {
                let change = try await harnesses[index].nextFrame()
                #expect(change.index == step % harnesses[index].player.image.frameCount)
                check(harnesses[index])
            }
        }
    }

    @Test func playersOfOneImageShareItsDecodes() async throws {
        // 40 frames, a budget of 8: frames are dropped behind the players and decoded again.
        let frameCount = 40, loops = 2
        let single = CountingAnimation(frameCount: frameCount)
        var one = [PlayerHarness(image: single, budget: 8 * single.bytesPerFrame)]
        try await playInStep(&one, frames: frameCount * loops)
        await one[0].player.buffer.waitUntilIdle()  // the window past the end is filled too
        one[0].player.stop()
        await one[0].player.buffer.waitUntilIdle()

        let shared = CountingAnimation(frameCount: frameCount)
        let clock = TestClock<Duration>()
        var ten = (0..<10).map { _ in PlayerHarness(image: shared, budget: 8 * shared.bytesPerFrame, clock: clock) }
        #expect(ten.allSatisfy { $0.player.buffer === ten[0].player.buffer })
        try await playInStep(&ten, frames: frameCount * loops)
        await ten[0].player.buffer.waitUntilIdle()
        for harness in ten { harness.player.stop() }
        await ten[0].player.buffer.waitUntilIdle()
        #expect(shared.decodes == single.decodes)
        // Not all fit: every frame shown was decoded once, and the window past the end (7 frames
        // held: the budget less the frame being decoded).
        #expect(single.decodes == frameCount * loops + 6)
    }

    @Test func anAnimationThatFitsIsNeverDecodedAfterItsFirstLoop() async throws {
        let image = CountingAnimation(frameCount: 12)
        var harnesses = [PlayerHarness(image: image, budget: 100 * image.bytesPerFrame)]
        try await playInStep(&harnesses, frames: 12)
        await harnesses[0].player.buffer.waitUntilIdle()
        #expect(image.decodes == 12)
        let statistics = harnesses[0].player.statistics.buffer
        #expect(statistics.framesHeld == 12)
        #expect(statistics.bytesHeld == 12 * image.bytesPerFrame)
        // Two more loops: hits only.
        for step in 12..<36 {
            #expect(try await harnesses[0].frame(at: .milliseconds(100 * step)).index == step % 12)
        }
        #expect(image.decodes == 12)
        #expect(harnesses[0].player.statistics.buffer.misses <= 1)
    }

    @Test(arguments: [100, 4])
    func aFrameThatFailsToDecodeIsPassedOverNotDecodedAgainAndAgain(budgetInFrames: Int) async throws {
        // The decoder picked the first wanted frame not held, and a frame that failed is never
        // held: it decoded that frame again, and again, on a core of its own, while it was wanted
        // (for ever, when the whole animation fits).
        let image = CountingAnimation(frameCount: 12, failing: [3])
        var harnesses = [PlayerHarness(image: image, budget: budgetInFrames * image.bytesPerFrame)]
        harnesses[0].player.play()
        var shown: [Int] = []
        shown.append(try await harnesses[0].nextFrame().index)
        for step in 1..<24 {
            await harnesses[0].clock.advance(to: harnesses[0].at(.milliseconds(100 * step)))
            if step % 12 == 3 {
                // The damaged frame shows nothing new. Wait for the player to have tried it: the
                // clock moved on before that would make the try late, and under `.hold` delay
                // the next frame past the instant this test moves the clock to.
                try await harnesses[0].wait { $0.statistics.framesFailed == step / 12 + 1 }
                continue
            }
            shown.append(try await harnesses[0].nextFrame().index)
        }
        await harnesses[0].player.buffer.waitUntilIdle()
        #expect(shown == (0..<24).map { $0 % 12 }.filter { $0 != 3 })
        // Each showing of frame 3 tries it once, and the window ahead at most once more a loop.
        let statistics = harnesses[0].player.statistics
        #expect(statistics.framesFailed == 2)
        #expect(statistics.buffer.failures <= 4, "\(statistics.buffer.failures) failed decodes")
    }

    @Test func theBudgetIsNeverExceededOverThousandsOfFrames() async throws {
        let image = CountingAnimation(frameCount: 3_000, width: 8, height: 8)
        let budget = 10 * image.bytesPerFrame + image.bytesPerFrame / 2
        var harnesses = [PlayerHarness(image: image, budget: budget)]
        try await playInStep(&harnesses, frames: 3_000) { harness in
            let held = harness.player.statistics.buffer.bytesHeld
            #expect(held <= budget, "\(held) bytes held")
        }
        let statistics = harnesses[0].player.statistics.buffer
        // Nine frames held at most, and the one being decoded: within the budget.
        #expect(statistics.capacity == 9)
        #expect(statistics.peakBytes <= budget)
        #expect(statistics.peakBytes >= 9 * image.bytesPerFrame)  // the window was used
    }

    @Test func theDecodersCanvasComesOutOfTheBudget() async throws {
        var encoder = ImageEncoder(type: .gif)
        for index in 0..<40 {
            encoder.addFrame(Bitmap(width: 8, height: 8, pixels: [UInt8](repeating: UInt8(index * 6), count: 256))!, duration: 0.1)
        }
        let gif = try Image(data: try encoder.encode())
        #expect(gif.decodingScratchBytes == gif.bytesPerFrame)  // GIF frames are composited on a canvas
        let still = try Image(data: try ImageEncoder.encode(Bitmap(width: 8, height: 8), as: .png))
        #expect(still.decodingScratchBytes == 0)
        // 10.5 frames of budget: the canvas, the frame in decode, and 8 held.
        var harnesses = [PlayerHarness(image: gif, budget: 10 * gif.bytesPerFrame + gif.bytesPerFrame / 2)]
        try await playInStep(&harnesses, frames: 3)
        #expect(harnesses[0].player.statistics.buffer.capacity == 8)
    }

    @Test func trimKeepsTheCurrentAndNextFrameThenRegrowsAfterTheCoolDown() async throws {
        let image = CountingAnimation(frameCount: 20)
        var harness = PlayerHarness(image: image, budget: 100 * image.bytesPerFrame)
        harness.player.play()
        _ = try await harness.nextFrame()
        await harness.player.buffer.waitUntilIdle()
        #expect(harness.player.statistics.buffer.framesHeld == 20)
        harness.player.trim()
        #expect(harness.player.statistics.buffer.framesHeld <= 2)
        #expect(harness.player.statistics.buffer.capacity == 2)
        // Still two frames through the cool-down...
        var step = 1
        for _ in 0..<FrameBuffer.trimCooldown {
            _ = try await harness.frame(at: .milliseconds(100 * step))
            step += 1
            #expect(harness.player.statistics.buffer.framesHeld <= 2)
        }
        // ...then one more per change, until every frame fits again.
        for _ in 0..<20 {
            _ = try await harness.frame(at: .milliseconds(100 * step))
            step += 1
        }
        await harness.player.buffer.waitUntilIdle()
        #expect(harness.player.statistics.buffer.framesHeld == 20)
    }

    @Test func aMemoryPressureMonitorTrimsARegisteredPlayer() async throws {
        let image = CountingAnimation(frameCount: 10)
        var harness = PlayerHarness(image: image)
        let monitor = MemoryPressureMonitor(threshold: 0.5) { .init(available: 1, limit: 100) }
        monitor.register(harness.player)
        harness.player.play()
        _ = try await harness.nextFrame()
        await harness.player.buffer.waitUntilIdle()
        #expect(harness.player.statistics.buffer.framesHeld == 10)
        #expect(monitor.check())
        #expect(harness.player.statistics.buffer.framesHeld <= 2)
    }

    /// What the buffer did once playback ended while its decoder was inside a prefetch.
    private struct AfterEnd {
        /// Decodes started before playback ended, and in all.
        let decodesBefore: Int, decodesAfter: Int
        /// Bytes the buffer holds once its decoder is idle.
        let bytesHeld: Int
    }

    /// Plays until the decoder is inside frame 5 (prefetching), then runs `end` and lets it go.
    private func endPlaybackDuringAPrefetch(_ end: (inout PlayerHarness?) -> Void) async throws -> AfterEnd {
        let image = CountingAnimation(frameCount: 50)
        let gate = image.hold(frame: 5)
        var harness: PlayerHarness? = PlayerHarness(image: image, budget: 20 * image.bytesPerFrame)
        let buffer = harness!.player.buffer
        harness!.player.play()
        _ = try await harness!.nextFrame()
        await wait(for: gate.entered)
        let decodesBefore = image.decodes
        end(&harness)
        gate.release.signal()
        await buffer.waitUntilIdle()
        return AfterEnd(decodesBefore: decodesBefore, decodesAfter: image.decodes, bytesHeld: buffer.statistics.bytesHeld)
    }

    @Test func stoppingAPlayerStopsItsPrefetching() async throws {
        let result = try await endPlaybackDuringAPrefetch { $0!.player.stop() }
        #expect(result.decodesAfter == result.decodesBefore, "a decode started after the player stopped")
        #expect(result.bytesHeld == 0)
    }

    @Test func releasingAPlayerStopsItsPrefetching() async throws {
        let result = try await endPlaybackDuringAPrefetch { $0 = nil }
        #expect(result.decodesAfter == result.decodesBefore, "a decode started after the player was released")
        #expect(result.bytesHeld == 0)
    }

    @Test func sixteenPlayersOnFourImagesPlaySeekAndTrimConcurrently() async throws {
        let images = (0..<4).map { CountingAnimation(frameCount: 30 + $0 * 10) }
        let clock = TestClock<Duration>()
        let players = (0..<16).map { index in
            let image = images[index % 4]
            return AnimatedImagePlayer(
                image: image, clock: clock, latenessPolicy: index % 2 == 0 ? .hold : .skip,
                bufferBudget: (8 + index) * image.bytesPerFrame)
        }
        await withTaskGroup(of: Void.self) { group in
            for (index, player) in players.enumerated() {
                group.addTask {
                    var random = SplitMix64(seed: UInt64(index + 1))
                    player.play()
                    for _ in 0..<200 {
                        switch random.next() % 8 {
                        case 0: player.seek(toFrame: Int(random.next() % 60))
                        case 1: player.pause()
                        case 2: player.trim()
                        case 3: player.rate = Double(random.next() % 4 + 1) / 2
                        case 4: player.bufferBudget = Int(random.next() % 20 + 1) * 16
                        case 5: _ = player.statistics
                        default: player.play()
                        }
                        await Task.yield()
                    }
                }
            }
            group.addTask {
                for _ in 0..<200 { await clock.advance(by: .milliseconds(37)) }
            }
        }
        // Every player still answers: stopped (so that no step of before is under way), then
        // sought, the next frame it shows is the one sought.
        for player in players { player.stop() }
        for player in players {
            var events = player.events(bufferingPolicy: .unbounded).makeAsyncIterator()
            player.seek(toFrame: 3)
            guard case .frame(let change) = try #require(await events.next()) else { Issue.record("no frame"); continue }
            #expect(change.index == 3)
            #expect(change.contents.bitmap[0, 0] == CountingAnimation.color(of: 3))
        }
        for player in players { player.stop() }
        for player in players { await player.buffer.waitUntilIdle() }
        for player in players {
            #expect(player.statistics.buffer.bytesHeld == 0)  // every player stopped: nothing kept
        }
    }
}
