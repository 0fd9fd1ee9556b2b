import Foundation
public import Logging

/// Collects log messages so tests can check what was reported.
public struct CapturingLogHandler: LogHandler {
    /// The messages logged so far, shared by every copy of the handler.
    public final class Store: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(level: Logger.Level, message: String)] = []

        fileprivate func append(_ level: Logger.Level, _ message: String) {
            lock.lock()
            defer { lock.unlock() }
            entries.append((level, message))
        }

        /// Every message, oldest first.
        public var messages: [String] {
            lock.lock()
            defer { lock.unlock() }
            return entries.map(\.message)
        }

        /// Whether a message (or its metadata) at `level` contains `fragment`.
        public func contains(level: Logger.Level, _ fragment: String) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            return entries.contains { $0.level == level && $0.message.contains(fragment) }
        }
    }

    let store: Store
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Keeps the message followed by its metadata (`key=value`, sorted), so tests can look for
    /// what the metadata says too.
    public func log(event: LogEvent) {
        let fields = metadata.merging(event.metadata ?? [:]) { $1 }.sorted { $0.key < $1.key }
        let text = ([event.message.description] + fields.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        store.append(event.level, text)
    }

    /// A logger whose messages land in the returned store.
    public static func logger() -> (Logger, Store) {
        let store = Store()
        return (Logger(label: "test") { _ in CapturingLogHandler(store: store) }, store)
    }
}
