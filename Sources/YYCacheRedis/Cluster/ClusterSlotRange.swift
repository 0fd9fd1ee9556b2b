import NIOCore

/// One line of `CLUSTER SLOTS`: a range of slots and the master that serves them.
struct ClusterSlotRange: Equatable {
    var slots: ClosedRange<Int>
    /// The master's host; empty when the server does not know its endpoint (then it is the host
    /// of the node that was asked).
    var host: String
    var port: Int

    /// The ranges of a `CLUSTER SLOTS` reply: `[[start, end, [host, port, id, …], replica…], …]`.
    ///
    /// - Throws: ``RedisError/unexpectedReply(node:command:reply:)`` for any other shape, or slots
    ///   outside 0…16383.
    static func parse(_ reply: RESPValue, node: String) throws(RedisError) -> [ClusterSlotRange] {
        // Described only when it is thrown: a whole map's description is not free.
        var unexpected: RedisError {
            .unexpectedReply(node: node, command: "CLUSTER SLOTS", reply: String(String(describing: reply).prefix(200)))
        }
        guard case .array(let entries?) = reply else { throw unexpected }
        var ranges: [ClusterSlotRange] = []
        for entry in entries {
            guard case .array(let fields?) = entry, fields.count >= 3,
                case .integer(let start) = fields[0], case .integer(let end) = fields[1],
                0 <= start, start <= end, end < HashSlot.count,
                case .array(let master?) = fields[2], master.count >= 2,
                case .integer(let port) = master[1], (1...65535).contains(port)
            else { throw unexpected }
            let host: String
            switch master[0] {
            case .bulkString(let bytes?): host = String(buffer: bytes)
            case .bulkString(nil): host = ""
            default: throw unexpected
            }
            // "?" is how Redis writes an endpoint it does not know, like the empty string.
            ranges.append(ClusterSlotRange(slots: Int(start)...Int(end), host: host == "?" ? "" : host, port: Int(port)))
        }
        return ranges
    }
}
