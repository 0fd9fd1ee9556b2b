#if canImport(Glibc)
import Glibc
#endif

/// How many malloc arenas `yy serve` lets glibc make.
///
/// glibc gives a thread that finds the arenas busy a new one, up to eight a core, and an arena keeps
/// the pages of what was freed in it. A render's mid-sized buffers (a decoded PNG of a few
/// megapixels, a resize's rows) are freed and allocated again on whichever threads run the next
/// requests, so every arena grows to the largest requests it has seen and the process's peak to
/// their sum. Two arenas keep the peak near what the renders in flight hold, at a small cost to
/// encoders that allocate from several threads at once (libaom); the figures are in
/// `Benchmarks/README.md`, "Measured design choices". imgproxy gives libvips the same advice.
/// Elsewhere (macOS, musl) this does nothing.
enum MallocArenas {
    /// The arenas `yy serve` asks for.
    static let serverCount: Int32 = 2

    /// Caps the arenas at ``serverCount`` unless the environment already chooses
    /// (`MALLOC_ARENA_MAX`, or glibc's tunables naming `arena_max`): glibc's own reading of it
    /// then stands.
    static func limitForServer(environment: [String: String]) {
        let environmentChooses =
            environment["MALLOC_ARENA_MAX"] != nil || environment["GLIBC_TUNABLES"]?.contains("arena_max") == true
        guard !environmentChooses else { return }
        #if canImport(Glibc)
        // `mallopt` is declared in <malloc.h>, which the Glibc module leaves out: looked up by name
        // instead. M_ARENA_MAX is -8 in every glibc that has it (2.10 on).
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "mallopt") else { return }
        let mArenaMax: Int32 = -8
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mArenaMax, serverCount)
        #endif
    }
}
