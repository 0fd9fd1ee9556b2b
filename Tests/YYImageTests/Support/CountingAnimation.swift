import Dispatch
import Synchronization
import YYDispatch

@testable import YYImage

/// An animation made in memory whose frames are solid colours, counting its decodes; a test may
/// hold a decode until it lets go (`hold(frame:)`), to catch the decoder mid-frame.
final class CountingAnimation: AnimatedImage {
    let frameCount: Int
    let loopCount: Int
    let width: Int
    let height: Int
    private let durations: [Double]
    /// Frames whose decode fails, as a damaged file's would.
    private let failing: Set<Int>
    private let decodeCount = Atomic<Int>(0)
    private let gate = Locked<Gate?>(nil)

    /// Stops the decoder inside one frame: `entered` is signalled when it gets there, and it goes
    /// on when `release` is signalled.
    struct Gate: Sendable {
        let frame: Int
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
    }

    init(durations: [Double], loopCount: Int = 0, width: Int = 2, height: Int = 2, failing: Set<Int> = []) {
        self.frameCount = durations.count
        self.failing = failing
        self.loopCount = loopCount
        self.width = width
        self.height = height
        self.durations = durations
    }

    convenience init(frameCount: Int, duration: Double = 0.1, loopCount: Int = 0, width: Int = 2, height: Int = 2, failing: Set<Int> = []) {
        self.init(
            durations: Array(repeating: duration, count: frameCount), loopCount: loopCount, width: width, height: height,
            failing: failing)
    }

    var bytesPerFrame: Int { width * height * 4 }
    var decodes: Int { decodeCount.load(ordering: .relaxed) }

    /// The colour of frame `index` (distinct for the first 2^24 frames).
    static func color(of index: Int) -> RGBA {
        RGBA(UInt8(index & 0xFF), UInt8((index >> 8) & 0xFF), UInt8((index >> 16) & 0xFF), 255)
    }

    /// Arms a gate for the next decode of `frame`.
    func hold(frame: Int) -> Gate {
        let gate = Gate(frame: frame)
        self.gate.withLock { $0 = gate }
        return gate
    }

    func frame(at index: Int) throws(ImageError) -> Bitmap {
        guard index >= 0 && index < frameCount else { throw .frameOutOfRange(index: index, count: frameCount) }
        decodeCount.add(1, ordering: .relaxed)
        let gate = self.gate.withLock { gate -> Gate? in
            guard let armed = gate, armed.frame == index else { return nil }
            gate = nil
            return armed
        }
        if let gate {
            gate.entered.signal()
            gate.release.wait()
        }
        if failing.contains(index) { throw .malformed(.gif, "frame \(index) is damaged") }
        return TestImages.solid(width, height, Self.color(of: index))
    }

    func duration(at index: Int) -> Double { durations[index] }
}
