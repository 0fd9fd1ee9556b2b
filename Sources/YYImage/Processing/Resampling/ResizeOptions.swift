/// How a resize filters: the kernel, the integer pre-shrink, the light it averages in, and threads.
public struct ResizeOptions: Sendable, Hashable, Codable {
    /// The filter (default Lanczos 3).
    public var kernel: ResamplingKernel = .lanczos3
    /// When shrinking by more than `2 × reducingGap`, first average blocks of whole pixels down to
    /// about `reducingGap` times the target, then apply the kernel to the rest, as libvips and
    /// Pillow's `thumbnail` do: much faster, and the closer to a pure kernel the larger the gap.
    /// `nil` applies the kernel to the whole image. Default 2.
    public var reducingGap: Double? = 2
    /// Filter in linear light (sRGB decoded to linear, filtered in floating point, encoded again):
    /// darker fine detail survives shrinking as it should, at several times the cost. Default off,
    /// as in Pillow and libvips.
    public var linearLight = false
    /// Split large images across the processor's cores (default on; a resize whose source and
    /// output both have fewer than ``ResizeOptions/parallelThreshold`` pixels always runs on the
    /// calling thread).
    public var usesAllCores = true

    /// The pixel count (of the source or the output, whichever is larger) from which a resize
    /// splits across cores: below it, starting the threads costs what they save (measured in
    /// `Benchmarks/README.md`).
    public static let parallelThreshold = 1 << 18

    /// The defaults: Lanczos 3, reducing gap 2, gamma-encoded, all cores.
    public init() {}

    /// Options with `kernel` and the other defaults.
    public init(kernel: ResamplingKernel) {
        self.kernel = kernel
    }
}
