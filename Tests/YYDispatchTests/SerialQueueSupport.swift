import Dispatch
import YYDispatch

/// Runs `body` as a work item of `queue` and returns when it ran.
func run(on queue: DispatchQueue, _ body: @escaping @Sendable () -> Void = {}) async {
    await withCheckedContinuation { continuation in
        queue.async {
            body()
            continuation.resume()
        }
    }
}

/// A log that any thread may append to.
final class EventLog<Entry: Sendable>: Sendable {
    private let entries = Locked<[Entry]>([])
    func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }
    var all: [Entry] { entries.withLock { $0 } }
}
