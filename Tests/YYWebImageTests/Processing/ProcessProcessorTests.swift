import Foundation
import Testing
import YYImage

@testable import YYWebImage

@Suite struct ProcessProcessorTests {
    @Test func aResizeCropAndFiltersComposeThroughThePipeline() async throws {
        let png = Fixtures.png(width: 200, height: 100)
        let harness = try await PipelineHarness.start { _ in .response(body: png) }
        defer { harness.server.stop() }
        let url = harness.url("/p.png")
        let cover = try await harness.pipeline.image(
            for: ImageRequest(
                url: url,
                processors: [
                    .resize(width: 40, height: 40, fit: .cover), .roundCorners(radius: 8), .grayscale,
                ]))
        #expect((cover.image.pixelWidth, cover.image.pixelHeight) == (40, 40))
        let frame = try cover.image.frame(at: 0)
        #expect(frame[0, 0].a == 0 && frame[20, 20].a == 255)
        #expect(frame[20, 20].r == frame[20, 20].g && frame[20, 20].g == frame[20, 20].b)
        let again = try await harness.pipeline.image(
            for: ImageRequest(
                url: url,
                processors: [
                    .resize(width: 40, height: 40, fit: .cover), .roundCorners(radius: 8), .grayscale,
                ]))
        #expect(again.source == .memory)
        let blurred = try await harness.pipeline.image(
            for: ImageRequest(
                url: url,
                processors: [
                    .resize(width: 40, height: 40, fit: .cover), .roundCorners(radius: 8), .blur(sigma: 1),
                ]))
        #expect(blurred.source != .memory)  // another chain, another memory key
    }

    @Test func aLeadingResizeThatShrinksLetsTheDecoderShrinkAndOthersDoNot() {
        let inside = ImageProcessors.Process.resize(width: 300, height: 200)
        #expect(inside.shrinkOnLoad(sourceWidth: 1200, sourceHeight: 800) == 600, "twice the target's longest side")
        #expect(ImageProcessors.Process.resize(width: 300, height: 200, fit: .cover).shrinkOnLoad(sourceWidth: 1200, sourceHeight: 800) == 600)
        #expect(inside.shrinkOnLoad(sourceWidth: 400, sourceHeight: 300) == nil, "under twice the target: the whole decode")
        #expect(ImageProcessors.Process.blur(sigma: 2).shrinkOnLoad(sourceWidth: 1200, sourceHeight: 800) == nil)
        #expect(inside.decodingMaxPixelSize == nil, "no resampling cap before the chain")
        #expect(
            ImageProcessors.Process.resize(width: 300, height: 200).identifier
                == "process(resize(w=300,h=200,fit=inside,g=centre,k=lanczos3,gap=2.0))")
    }

    /// 1204 × 800 to a width of 64 is 64 × 43 by sharp's rule; the decode at 1/8 (151 × 100)
    /// would give 64 × 42 by the same rule.
    @Test func aJPEGShrunkOnLoadGetsItsSizesFromTheOriginal() async throws {
        let jpeg = Fixtures.jpeg(width: 1204, height: 800)
        let harness = try await PipelineHarness.start { _ in .response(body: jpeg) }
        defer { harness.server.stop() }
        let whole = try ImageDecoder(data: Data(jpeg)).frame(at: 0)
        for processor in [ImageProcessors.Process.resize(width: 64), .resize(width: 64, height: 64)] {
            let processed = try await harness.pipeline.image(for: ImageRequest(url: harness.url("/fox.jpg"), processors: [processor]))
            #expect(processor.shrinkOnLoad(sourceWidth: 1204, sourceHeight: 800) == 130, "decoded at 1/8")
            let frame = try processed.image.frame(at: 0)
            #expect((frame.width, frame.height) == (64, 43), "\(processor.identifier)")
            let reference = try processor.chain.apply(to: whole)
            let quality = frame.psnr(against: reference)
            // The fixture's sawtooth blue channel is a hard case for a 1/8 decode (36 dB here);
            // real photos' bound is in YYImage's ShrinkOnLoadQualityTests.
            #expect(quality >= 33, "\(processor.identifier): \(quality) dB from the whole decode resized")
        }
    }
}
