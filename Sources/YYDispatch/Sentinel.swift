import Synchronization

/// A thread-safe counter that cancels work that has been superseded.
///
/// Capture ``value`` when work starts; anyone who wants the work abandoned calls ``increase()``;
/// the work checks `sentinel.value == captured` at convenient points and stops when it differs
/// (the pattern of YYAsyncLayer and YYSentinel).
///
/// ```swift
/// let ticket = sentinel.value
/// queue.async { for row in rows { guard sentinel.value == ticket else { return }; render(row) } }
/// sentinel.increase()   // cancels the loop above
/// ```
public final class Sentinel: Sendable {
    private let counter: Atomic<Int64>

    /// Creates a sentinel starting at `value`.
    public init(value: Int64 = 0) {
        counter = Atomic(value)
    }

    /// The current value.
    public var value: Int64 {
        counter.load(ordering: .acquiring)
    }

    /// Increments the value atomically and returns the new value.
    @discardableResult
    public func increase() -> Int64 {
        counter.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
    }
}
