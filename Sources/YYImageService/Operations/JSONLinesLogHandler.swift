public import Foundation
public import Logging

/// A swift-log handler that writes one JSON object per line — `time`, `level`, `label`, `message`
/// and the metadata — for log collectors that read JSON lines.
public struct JSONLinesLogHandler: LogHandler {
    /// The logger's label.
    public let label: String
    /// The lowest level written (default info).
    public var logLevel: Logger.Level = .info
    /// Metadata added to every event of the logger.
    public var metadata: Logger.Metadata = [:]
    private let write: @Sendable (Data) -> Void

    /// A handler for the logger labelled `label` that writes each line with `write` (default:
    /// to standard error, one write a line, so lines from several threads do not interleave).
    public init(label: String, write: @escaping @Sendable (Data) -> Void = { FileHandle.standardError.write($0) }) {
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var object: [String: Any] = [
            "time": Self.timestamp(), "level": event.level.rawValue, "label": label, "message": "\(event.message)",
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) where object[key] == nil {
            object[key] = "\(value)"
        }
        guard var line = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        line.append(UInt8(ascii: "\n"))
        write(line)
    }

    private static func timestamp() -> String {
        Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
