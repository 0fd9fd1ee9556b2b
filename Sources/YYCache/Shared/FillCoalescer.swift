import YYDispatch

/// Runs at most one fill per key at a time in this process: callers that ask for a key whose fill
/// is running wait for that fill's result instead of starting their own.
final class FillCoalescer<Value: Sendable>: Sendable {
    private let running = Locked([String: Task<Value, any Error>]())

    /// The result of the running fill of `key`, or of `fill` started now when none runs.
    ///
    /// The fill is shared, so it is not cancelled when one caller is: it ends when it ends.
    func value(forKey key: String, fill: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = running.withLock { tasks in
            if let task = tasks[key] { return task }
            // The task removes itself when it ends; it takes the same lock, so it cannot do that
            // before it is in the table.
            let task = Task { [running] in
                defer { running.withLock { tasks in tasks[key] = nil } }
                return try await fill()
            }
            tasks[key] = task
            return task
        }
        return try await task.value
    }

    /// How many fills are running (for tests).
    var runningCount: Int { running.withLock { $0.count } }
}
