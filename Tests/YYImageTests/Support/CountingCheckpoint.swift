import Synchronization
import YYImage

/// A checkpoint for the cancellation tests: counts its calls (from any thread) and throws
/// ``ImageError/cancelled`` from the `failingCall`th on.
final class CountingCheckpoint: Sendable {
    private let count = Atomic<Int>(0)
    let failingCall: Int

    init(failingAt call: Int = .max) { failingCall = call }

    var calls: Int { count.load(ordering: .relaxed) }

    func check() throws(ImageError) {
        if count.add(1, ordering: .relaxed).newValue >= failingCall { throw .cancelled }
    }
}
