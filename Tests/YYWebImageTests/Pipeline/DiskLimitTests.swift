import Foundation
import LoopbackHTTPServer
import TestTraits
import Testing

@testable import YYWebImage

/// The disk cache's cost limit holds after every write, not only after the next sweep.
@Suite(.hangLimit) struct DiskLimitTests {
    @Test func theCostLimitHoldsAfterEachWrite() async throws {
        let png = Fixtures.png(width: 100, height: 100)
        let harness = try await PipelineHarness.start(disk: true) { _ in .response(headers: [("Cache-Control", "max-age=3600")], body: png) }
        defer { harness.server.stop() }
        let disk = try #require(harness.pipeline.configuration.diskCache)
        disk.autoTrimInterval = .seconds(3600)  // no sweep will help
        disk.costLimit = png.count * 2
        for index in 0..<6 {
            _ = try await harness.pipeline.image(for: harness.url("/l\(index).png"))
            #expect(try disk.totalCost <= png.count * 2)
        }
        #expect(try await disk.contains(harness.url("/l5.png").absoluteString))
    }
}
