internal import CYYPixelKernels

/// The C pixel kernels' one switch: AVX2 where the processor has it, else (or when the
/// environment variable `YY_PIXEL_KERNELS` is `portable`) the portable loops. Both give the same
/// bytes; ``withSIMD(_:_:)`` lets a test compare them on a machine with AVX2.
enum PixelKernels {
    /// Whether the kernels run their AVX2 code on the calling thread.
    static var usesSIMD: Bool { yy_pixel_kernels_use_avx2() != 0 }

    /// `body`, run on the calling thread with the portable loops (`enabled` false) or AVX2 where
    /// the process uses it (`enabled` true); other threads keep their choice. `body` must not
    /// split its work across threads (`ResizeOptions.usesAllCores` off).
    static func withSIMD<T>(_ enabled: Bool, _ body: () throws -> T) rethrows -> T {
        yy_pixel_kernels_set_simd_on_this_thread(enabled ? 1 : 0)
        defer { yy_pixel_kernels_set_simd_on_this_thread(-1) }
        return try body()
    }
}
