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

    @Test func aLeadingInsideResizeLetsTheDecoderShrinkAndOthersDoNot() {
        #expect(ImageProcessors.Process.resize(width: 300, height: 200).decodingMaxPixelSize == 300)
        #expect(ImageProcessors.Process.resize(width: 300, height: 200, fit: .cover).decodingMaxPixelSize == nil)
        #expect(ImageProcessors.Process.resize(width: 300).decodingMaxPixelSize == nil)
        #expect(ImageProcessors.Process.blur(sigma: 2).decodingMaxPixelSize == nil)
        #expect(
            ImageProcessors.Process.resize(width: 300, height: 200).identifier
                == "process(resize(w=300,h=200,fit=inside,g=centre,k=lanczos3,gap=2.0))")
    }
}
