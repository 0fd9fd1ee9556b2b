import Dispatch
import YYDispatch

/// Lets go of evicted values away from the caller's thread.
///
/// Dropping the last reference to a large value (an image, a big buffer) can take a while; YYCache
/// did it on a background queue so that `set` and `trim` return quickly. This type does the same.
enum ValueReleaser {
    /// Holds values that nobody reads any more. It is `@unchecked Sendable` because the only thing
    /// that happens to the contents on the other thread is their deallocation.
    private struct Graveyard<T>: @unchecked Sendable {
        let items: [T]
    }

    /// Releases `values` on a utility queue when `asynchronously`, else right here.
    static func release<T>(_ values: consuming [T], asynchronously: Bool) {
        guard asynchronously, !values.isEmpty else { return }
        let graveyard = Graveyard(items: values)
        DispatchQueuePool.shared(for: .utility).queue.async {
            withExtendedLifetime(graveyard) {}
        }
    }
}
