public import NIOCore

/// A command ready to send: its arguments written as a RESP array of bulk strings.
///
/// Arguments are bytes, so keys and values may hold anything (newlines, `*`, `$`, NUL).
public struct RedisCommand: Sendable {
    /// The encoded command in pieces written one after the other (one `writev`): large arguments
    /// stay in their own buffers instead of being copied into the command's.
    private(set) var parts: [ByteBuffer]
    /// The command's name, for errors and logs.
    public let name: String

    /// Arguments above this size are sent from their own buffer, not copied.
    static let copyLimit = 16 * 1024

    /// The encoded command in one buffer.
    public var bytes: ByteBuffer {
        var joined = ByteBuffer()
        for part in parts { joined.writeImmutableBuffer(part) }
        return joined
    }

    /// A command from its name and arguments.
    ///
    /// ```swift
    /// let command = RedisCommand("SET", ["greeting", "hello"])
    /// ```
    public init(_ name: String, _ arguments: [String] = []) {
        self.init(name, arguments: arguments.map { ByteBuffer(string: $0) })
    }

    /// A command from its name and binary arguments.
    public init(_ name: String, arguments: [ByteBuffer]) {
        self.name = name
        var parts: [ByteBuffer] = []
        var bytes = ByteBuffer()
        bytes.reserveCapacity(
            16 + name.utf8.count
                + arguments.reduce(0) {
                    $0 + ($1.readableBytes > Self.copyLimit ? 0 : $1.readableBytes) + 16
                })
        bytes.writeStaticString("*")
        bytes.writeString(String(arguments.count + 1))
        bytes.writeStaticString("\r\n")
        // The name is written in place: no buffer of its own for every command sent.
        bytes.writeStaticString("$")
        bytes.writeString(String(name.utf8.count))
        bytes.writeStaticString("\r\n")
        bytes.writeString(name)
        bytes.writeStaticString("\r\n")
        for argument in arguments { Self.appendBulk(argument, to: &bytes, parts: &parts) }
        parts.append(bytes)
        self.parts = parts
    }

    private static func appendBulk(_ argument: ByteBuffer, to bytes: inout ByteBuffer, parts: inout [ByteBuffer]) {
        bytes.writeStaticString("$")
        bytes.writeString(String(argument.readableBytes))
        bytes.writeStaticString("\r\n")
        if argument.readableBytes > copyLimit {
            parts.append(bytes)
            parts.append(argument)
            bytes = ByteBuffer()
        } else {
            bytes.writeImmutableBuffer(argument)
        }
        bytes.writeStaticString("\r\n")
    }
}
