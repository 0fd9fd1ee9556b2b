import Foundation
import Testing
import YYDispatch

@testable import YYWebImage

/// The defaults a `Configuration()` starts from.
@Suite struct ConfigurationTests {
    @Test func theMemoryCacheGetsAQuarterOfWhatTheProcessMayUseUpTo512MB() throws {
        #expect(ImagePipeline.Configuration.defaultMemoryCostLimit(memoryLimit: 256 << 20) == 64 << 20)
        #expect(ImagePipeline.Configuration.defaultMemoryCostLimit(memoryLimit: 64 << 30) == 512 << 20)
        #expect(ImagePipeline.Configuration.defaultMemoryCostLimit(memoryLimit: -1) == 0)
        #expect(ImagePipeline.Configuration.defaultMemoryCostLimit(memoryLimit: .max) == 512 << 20)
    }

    @Test func theDefaultMemoryCacheFollowsTheLimitThisProcessRunsUnder() throws {
        // The cgroup's limit where there is one, else the machine's memory.
        let limit = MemoryPressureMonitor.systemReading()?.limit ?? Int64(clamping: ProcessInfo.processInfo.physicalMemory)
        let configuration = ImagePipeline.Configuration()
        let cache = try #require(configuration.memoryCache)
        #expect(cache.costLimit == ImagePipeline.Configuration.defaultMemoryCostLimit(memoryLimit: limit))
    }
}
