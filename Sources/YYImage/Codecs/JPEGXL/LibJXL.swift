#if LibJXL
internal import CJXL
internal import Foundation

/// libjxl's thread pool, one for the process: each decoder and encoder borrows it (a pool per
/// call would start and stop threads for every image).
enum LibJXL {
    /// The runner function and its state for `JxlDecoderSetParallelRunner` and its encoder twin.
    /// Created on first use and never freed; libjxl's runner is safe to share between calls.
    nonisolated(unsafe) static let runner: UnsafeMutableRawPointer? =
        JxlThreadParallelRunnerCreate(nil, min(8, ProcessInfo.processInfo.activeProcessorCount))

    /// The pixel layout exchanged with libjxl: 8-bit, `channels` interleaved, native endian,
    /// rows packed.
    static func format(channels: Int) -> JxlPixelFormat {
        JxlPixelFormat(num_channels: UInt32(channels), data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
    }
}
#endif
