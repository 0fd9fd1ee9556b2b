import Synchronization
import Testing

@testable import YYImage

/// A checkpoint is asked inside long steps, not only between them, so a deadline stops a big
/// resize or blur soon after it passes.
@Suite struct ProcessingCancellationTests {
    @Test func aBlurAsksTheCheckpointInsideItsStep() throws {
        let checkpoint = CountingCheckpoint(failingAt: 2)
        let image = ProcessingFixtures.texture(width: 64, height: 48)
        // Call 1 comes before the step; call 2, the one that throws, from inside the blur.
        let chain = ProcessingChain().blurred(sigma: 3)
        #expect(throws: ImageError.cancelled) { try chain.apply(to: image, decodedFrom: nil, checkpoint: checkpoint.check) }
        #expect(checkpoint.calls == 2)
    }

    @Test func aResizeAndASharpenAskTheCheckpointInsideTheirSteps() throws {
        let image = ProcessingFixtures.texture(width: 64, height: 48)
        for chain in [ProcessingChain().resized(Resize(width: 20)), ProcessingChain().sharpened(sigma: 1)] {
            let checkpoint = CountingCheckpoint(failingAt: 2)
            #expect(throws: ImageError.cancelled) { try chain.apply(to: image, decodedFrom: nil, checkpoint: checkpoint.check) }
            #expect(checkpoint.calls == 2, "\(chain.identifier)")
        }
    }

    @Test func aLinearLightResizeAsksTheCheckpointAsItGoes() throws {
        let checkpoint = CountingCheckpoint(failingAt: 2)
        let image = ProcessingFixtures.texture(width: 64, height: 200)
        var options = ResizeOptions()
        options.linearLight = true
        let chain = ProcessingChain().resized(Resize(width: 32, options: options))
        #expect(throws: ImageError.cancelled) { try chain.apply(to: image, decodedFrom: nil, checkpoint: checkpoint.check) }
        #expect(checkpoint.calls == 2)
    }

    @Test func aCheckpointThatNeverThrowsChangesNoPixel() throws {
        let image = ProcessingFixtures.texture(width: 300, height: 200, alpha: true)
        let chain = ProcessingChain().resized(Resize(width: 120)).blurred(sigma: 2).sharpened(sigma: 1)
        let checkpoint = CountingCheckpoint()
        #expect(try chain.apply(to: image, decodedFrom: nil, checkpoint: checkpoint.check) == (try chain.apply(to: image)))
        #expect(checkpoint.calls >= 6)
    }

    @Test func longWorkIsCutIntoRoundsOfBandsAndShortWorkIsNot() {
        let perSlice = Resampler.multiplyAddsPerSlice
        #expect(Resampler.sliceCount(bands: 2, outputRows: 1000, multiplyAdds: perSlice) == 2)
        #expect(Resampler.sliceCount(bands: 2, outputRows: 1000, multiplyAdds: 8 * perSlice) == 8)
        #expect(Resampler.sliceCount(bands: 1, outputRows: 1000, multiplyAdds: 3.5 * perSlice) == 4)
        // No slice thinner than a row.
        #expect(Resampler.sliceCount(bands: 2, outputRows: 5, multiplyAdds: 100 * perSlice) == 5)
    }

    @Test func slicesRunInRoundsWithACheckpointBeforeEachAndStopWhereItThrows() {
        var rows = [Int](repeating: 0, count: 10)
        let checkpoint = CountingCheckpoint(failingAt: 3)
        #expect(throws: ImageError.cancelled) {
            try Resampler.forEachSlice(of: 10, slices: 5, bands: 1, checkpoint: checkpoint.check) { slice in
                for row in slice { rows[row] += 1 }
            }
        }
        // Two rounds of one slice (two rows each) ran before the third checkpoint threw.
        #expect(rows == [1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
        let covered = Mutex([Int](repeating: 0, count: 10))
        Resampler.forEachSlice(of: 10, slices: 4, bands: 2, checkpoint: { () throws(Never) in }) { slice in
            covered.withLock { for row in slice { $0[row] += 1 } }
        }
        #expect(covered.withLock { $0 } == [Int](repeating: 1, count: 10))
    }
}
