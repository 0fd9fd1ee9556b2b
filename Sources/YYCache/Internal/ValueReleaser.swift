import Dispatch
import YYDispatch

/// Lets go of evicted values away from the caller's thread.
///
/// Dropping the last reference to a large value (an image, a big buffer) can take a while; YYCache
/// did it on a background queue so that `set` and `trim` return quickly. This type does the same.
///
/// The caller must not keep any reference to the values: ``release(_:asynchronously:)`` takes
/// them out of the caller's array, and the background block empties the box, so the values are
/// freed there whichever side finishes first.
@usableFromInline
enum ValueReleaser {
    /// Holds values that nobody reads any more. `@unchecked Sendable` because the only thing that
    /// happens to the contents on the other thread is their deallocation.
    private final class Graveyard<T>: @unchecked Sendable {
        private var items: [T]
        init(_ items: [T]) { self.items = items }
        func empty() { items = [] }
    }

    /// Moves the values out of `values` (leaving it empty) and releases them on a utility queue
    /// when `asynchronously`, else right here.
    @usableFromInline
    static func release<T>(_ values: inout [T], asynchronously: Bool) {
        guard !values.isEmpty else { return }
        guard asynchronously else {
            values = []
            return
        }
        let graveyard = Graveyard(values)
        values = []
        DispatchQueuePool.shared(for: .utility).queue.async { graveyard.empty() }
    }
}
