// AnimatedImagePlayer's benchmarks, release build, real clock, every contender in the same run:
//   (a) CPU time per shown frame playing YYKit's sample animations, against a naive player that
//       decodes each frame when it is due;
//   (b) peak heap playing a 300-frame GIF made in the run with a 16 MB budget, against keeping
//       every frame;
//   (c) timing accuracy over a minute of playback: lateness percentiles and drift;
//   (d) ten players of one image against one player: decodes and CPU time.
//
//   swift run -c release PlayerBenchmarks [--images DIR] [--rate X] [--accuracy-seconds N]
import BenchmarkSupport
import Foundation
import YYImage

#if canImport(Glibc)
import CMallocInfo
import Glibc
#endif

let option = commandLineOption
let images = sampleImagesFolder
/// Playback rate for (a), (b) and (d): the schedule stays real, the run shorter.
let rate = option("--rate").flatMap(Double.init) ?? 2
let accuracySeconds = option("--accuracy-seconds").flatMap(Int.init) ?? 60

/// CPU seconds the process has used (user + system, all threads).
func cpuSeconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Bytes of the C heap in use: small blocks plus mmapped ones (glibc's `mallinfo2`).
func heapInUse() -> Int {
    #if canImport(Glibc)
    let info = mallinfo2()
    return Int(info.uordblks + info.hblkhd)
    #else
    return 0
    #endif
}

/// Keeps results alive so that the optimiser cannot drop the work.
nonisolated(unsafe) var blackHole = 0

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func load(_ name: String) throws -> Image {
    try Image(contentsOfFile: images + "/" + name)
}

/// How the benchmark's consumer hears of frames.
enum Consumer {
    /// `addObserver`: called on the player's timer thread.
    case observer
    /// `events()`: an `AsyncStream` read by a task.
    case stream
}

/// Plays `image` with the real clock for `loops` loops; returns the CPU seconds and the decodes
/// from the start of loop `measuredFrom` to the end, and the player.
func playWithPlayer(
    _ image: Image, loops: Int, measuredFrom: Int, budget: Int? = nil,
    consumer: Consumer = .observer
) async
    -> (cpu: Double, decodes: Int, player: AnimatedImagePlayer<ContinuousClock>)
{
    let player = AnimatedImagePlayer(image: image, bufferBudget: budget)
    player.rate = rate
    player.loopCountOverride = loops
    /// What the consumer saw: the CPU time and decodes when loop `measuredFrom` began.
    final class Marks: @unchecked Sendable {
        let lock = NSLock()
        var cpu = cpuSeconds()
        var decodes = 0
    }
    let marks = Marks()
    let record: @Sendable (AnimatedImagePlayer<ContinuousClock>.FrameChange) -> Void = { [weak player] change in
        if change.index == 0 && change.loop == measuredFrom {
            let decodes = player?.statistics.buffer.decodes ?? 0
            marks.lock.withLock {
                marks.cpu = cpuSeconds(); marks.decodes = decodes
            }
        }
        blackHole &+= Int(change.contents.bitmap.pixels[0])
    }
    let (finished, finish) = AsyncStream.makeStream(of: Void.self)
    switch consumer {
    case .observer:
        player.addObserver { event in
            switch event {
            case .frame(let change): record(change)
            case .finished: finish.finish()
            }
        }
        player.play()
        for await _ in finished {}
    case .stream:
        let events = player.events(bufferingPolicy: .unbounded)
        player.play()
        for await event in events {
            guard case .frame(let change) = event else { break }
            record(change)
        }
    }
    let cpu = cpuSeconds() - marks.lock.withLock { marks.cpu }
    return (cpu, player.statistics.buffer.decodes - marks.lock.withLock { marks.decodes }, player)
}

/// The naive player: sleeps until each frame is due (same timeline) and decodes it then.
func playNaively(_ image: Image, loops: Int, measuredFrom: Int) async throws -> Double {
    let clock = ContinuousClock()
    let timeline = AnimationTimeline(image: image, loopCount: loops, rate: rate)
    let start = clock.now
    var cpuAtMeasure = cpuSeconds()
    for loop in 0..<loops {
        if loop == measuredFrom { cpuAtMeasure = cpuSeconds() }
        for index in 0..<image.frameCount {
            try await clock.sleep(until: start + timeline.start(ofFrame: index, loop: loop), tolerance: nil)
            blackHole &+= Int(try image.frame(at: index).pixels[0])
        }
    }
    try await clock.sleep(until: start + timeline.start(ofFrame: 0, loop: loops), tolerance: nil)
    return cpuSeconds() - cpuAtMeasure
}

/// The floor under any player that wakes once per frame: the naive player's schedule on a thread
/// that waits for each deadline on a semaphore, as the player's timer thread does, and does
/// nothing else when it wakes. Blocks the calling thread.
func wakeOnly(_ image: Image, loops: Int, measuredFrom: Int) -> Double {
    let clock = ContinuousClock()
    let timeline = AnimationTimeline(image: image, loopCount: loops, rate: rate)
    let never = DispatchSemaphore(value: 0)
    let start = clock.now
    func wait(until deadline: ContinuousClock.Instant) {
        while case let left = clock.now.duration(to: deadline), left > .zero {
            let nanoseconds = left.components.seconds * 1_000_000_000 + left.components.attoseconds / 1_000_000_000
            _ = never.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
        }
    }
    var cpuAtMeasure = cpuSeconds()
    for loop in 0..<loops {
        if loop == measuredFrom { cpuAtMeasure = cpuSeconds() }
        for index in 0..<image.frameCount { wait(until: start + timeline.start(ofFrame: index, loop: loop)) }
    }
    wait(until: start + timeline.start(ofFrame: 0, loop: loops))
    return cpuSeconds() - cpuAtMeasure
}

if let file = option("--profile-play") {
    // For profilers: play one animation (three loops, or `--loops N`) with an observer, and
    // nothing else.
    let loops = option("--loops").flatMap(Int.init) ?? 3
    _ = await playWithPlayer(try Image(contentsOfFile: file), loops: loops, measuredFrom: 1)
    exit(0)
}

print(
    "Run \(ISO8601DateFormatter().string(from: Date()).prefix(10)), \(ProcessInfo.processInfo.activeProcessorCount) cores, playback rate \(rate) for (a), (b) and (d)."
)
print()

// MARK: (a) CPU per shown frame

print("### CPU time per shown frame, from the second loop (µs; all frames fit the automatic budget)")
print()
print(
    "Two loops each, real clock; CPU time of the whole process (every thread) during loop 2, divided by its frames. The naive player sleeps in a task until each frame is due and decodes it then, as a player without a frame buffer does. AnimatedImagePlayer is measured with an observer (called on its timer thread) and with an `AsyncStream` consumer (a task woken per frame). The floor is the naive player's schedule with nothing done at each deadline: a thread waiting on a semaphore until each frame is due, as the player's timer thread does; no player that wakes once per frame can cost less."
)
print()
print(
    "| animation | frames | canvas | naive player | player, observer | ratio | player, AsyncStream | ratio | decodes in loop 2 | floor: wake-ups alone | floor / naive |"
)
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
let samples = ["demo/cube@2x.png", "compare/ermilio.gif", "misc/Demo.gif", "demo/nyancat@2x.webp", "demo/wall-e@2x.webp", "demo/pia@2x.png"]
for sample in samples {
    let naive = try await playNaively(try load(sample), loops: 2, measuredFrom: 1)
    let image = try load(sample)
    let (ours, decodesInLoop2, _) = await playWithPlayer(image, loops: 2, measuredFrom: 1)
    let (streamed, _, _) = await playWithPlayer(try load(sample), loops: 2, measuredFrom: 1, consumer: .stream)
    let wakeFloor = wakeOnly(try load(sample), loops: 2, measuredFrom: 1)
    let frames = Double(image.frameCount)
    func perFrame(_ cpu: Double) -> String { String(format: "%.1f", cpu / frames * 1e6) }
    print(
        "| \(sample) | \(image.frameCount) | \(image.pixelWidth)×\(image.pixelHeight) | \(perFrame(naive)) "
            + "| \(perFrame(ours)) | \(String(format: "%.3f", ours / naive)) | \(perFrame(streamed)) | \(String(format: "%.3f", streamed / naive)) | \(decodesInLoop2) "
            + "| \(perFrame(wakeFloor)) | \(String(format: "%.3f", wakeFloor / naive)) |")
}
print()

// MARK: (b) Peak memory with a 16 MB budget

print("### Peak heap playing a long animation with a 16 MB budget")
print()
// cube@2x.png's 100 frames three times, enlarged to 256 × 256: 300 frames of 256 KB, 75 MB decoded.
let longPath = FileManager.default.temporaryDirectory.appendingPathComponent("yykit-player-long-\(getpid()).gif").path
do {
    let cube = try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: images + "/demo/cube@2x.png")))
    var encoder = ImageEncoder(type: .gif)
    for _ in 0..<3 {
        for index in 0..<cube.frameCount { encoder.addFrame(try cube.frame(at: index).resized(width: 256, height: 256), duration: 0.04) }
    }
    try encoder.encode(to: URL(fileURLWithPath: longPath))
}
defer { try? FileManager.default.removeItem(atPath: longPath) }
let budget = 16 << 20
let fileBytes = (try? FileManager.default.attributesOfItem(atPath: longPath)[.size] as? Int) ?? 0
let frameBytes = 256 * 256 * 4

/// Samples the heap every half millisecond on its own thread until stopped; the peak above `base`.
final class HeapSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var peak = 0
    private var running = true
    private let done = DispatchSemaphore(value: 0)
    let base: Int

    init(base: Int) {
        self.base = base
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                let now = heapInUse()
                lock.withLock { peak = max(peak, now) }
                usleep(500)
            }
            done.signal()
        }
    }

    func stop() -> Int {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { peak } - base
    }
}

print(
    "A 300-frame GIF made in the run (cube@2x.png's frames three times at 256×256: \(frameBytes / 1024) KB a frame, \((300 * frameBytes) >> 20) MB decoded, \(fileBytes / 1024) KB of file), one loop. Heap in use (glibc mallinfo2, small and mmapped blocks) sampled every 0.5 ms on a thread of its own, minus the heap before the image was opened."
)
print()
print("| contender | peak heap above baseline | budget + two frames + file |")
print("|---|---:|---:|")
let limit = budget + 2 * frameBytes + fileBytes
do {
    let sampler = HeapSampler(base: heapInUse())
    let image = try Image(contentsOfFile: longPath)
    let (_, _, player) = await playWithPlayer(image, loops: 1, measuredFrom: 0, budget: budget)
    let peak = sampler.stop()
    print("| AnimatedImagePlayer, 16 MB budget (peak buffer \(player.statistics.buffer.peakBytes >> 10) KB) | \(peak >> 10) KB | \(limit >> 10) KB |")
}
do {
    let sampler = HeapSampler(base: heapInUse())
    let image = try Image(contentsOfFile: longPath)
    try image.preloadAllFrames()  // every frame kept, as a player without a budget does
    for index in 0..<image.frameCount { blackHole &+= Int(try image.frame(at: index).pixels[0]) }
    let peak = sampler.stop()
    print("| every frame kept (Image.preloadAllFrames) | \(peak >> 10) KB | \(limit >> 10) KB |")
}
print()

// MARK: (c) Timing accuracy

print("### Timing accuracy over \(accuracySeconds) s of playback (rate 1, real clock)")
print()
do {
    let image = try load("demo/cube@2x.png")
    let timeline = AnimationTimeline(image: image)
    let loops = max(1, Int((Double(accuracySeconds) / seconds(timeline.loopDuration)).rounded(.up)))
    let player = AnimatedImagePlayer(image: image)
    player.loopCountOverride = loops
    let clock = ContinuousClock()
    var lateness: [Double] = []
    var drift = Duration.zero
    let events = player.events(bufferingPolicy: .unbounded)
    let start = clock.now
    player.play()
    for await event in events {
        guard case .frame(let change) = event else { break }
        let received = clock.now
        // Due as authored: the start plus the durations of every frame before, added up here.
        let authored = start + timeline.start(ofFrame: change.index, loop: change.loop)
        lateness.append(seconds(received - authored) * 1000)
        drift = change.shownAt - authored
    }
    lateness.sort()
    func percentile(_ p: Double) -> Double { lateness[min(lateness.count - 1, Int(Double(lateness.count - 1) * p))] }
    print(
        "cube@2x.png (100 frames of 50 ms) for \(loops) loops: \(lateness.count) frames. Lateness is when the consumer received the frame minus its authored time (start + the durations before it); drift is the player's own show time of the last frame minus its authored time. A frame can be received late although the player showed it in time: the consumer is a task, woken after the player's timer thread showed the frame."
    )
    print()
    print(
        "| frames | p50 lateness | p99 lateness | max lateness | drift at the end | received late (> 4 ms) | shown late by the player (> 4 ms) | one frame |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(
        "| \(lateness.count) | \(String(format: "%.3f", percentile(0.5))) ms | \(String(format: "%.3f", percentile(0.99))) ms "
            + "| \(String(format: "%.3f", lateness.last ?? 0)) ms | \(String(format: "%.3f", seconds(drift) * 1000)) ms "
            + "| \(lateness.filter { $0 > 4 }.count) | \(player.statistics.lateFrames) | 50 ms |")
}
print()

// MARK: (d) Ten players of one image

print("### Ten players of one image against one player (ermilio.gif, two loops)")
print()
print("| players | decodes | CPU time |")
print("|---:|---:|---:|")
for count in [1, 10] {
    let image = try load("compare/ermilio.gif")
    let cpuBefore = cpuSeconds()
    let players = (0..<count).map { _ in AnimatedImagePlayer(image: image) }
    await withTaskGroup(of: Void.self) { group in
        for player in players {
            player.rate = rate
            player.loopCountOverride = 2
            let events = player.events(bufferingPolicy: .unbounded)
            group.addTask {
                for await event in events {
                    if case .finished = event { return }
                }
            }
            player.play()
        }
    }
    let decodes = players[0].statistics.buffer.decodes
    print("| \(count) | \(decodes) | \(String(format: "%.0f", (cpuSeconds() - cpuBefore) * 1000)) ms |")
}
