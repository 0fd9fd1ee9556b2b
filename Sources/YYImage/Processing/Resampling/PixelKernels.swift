internal import CYYPixelKernels

/// The C pixel kernels' one switch: AVX2 where the processor has it, else (or when the
/// environment variable `YY_PIXEL_KERNELS` is `portable`) the portable loops. Both give the same
/// bytes; the switch lets a test compare them on a machine with AVX2.
enum PixelKernels {
    /// Whether the kernels run their AVX2 code.
    static var usesSIMD: Bool { yy_pixel_kernels_use_avx2() != 0 }

    /// Chooses the portable loops (`false`) or AVX2 where the processor has it (`true`) for every
    /// kernel from the next call on, in every thread.
    static func setSIMD(_ enabled: Bool) {
        yy_pixel_kernels_set_simd(enabled ? 1 : 0)
    }
}
