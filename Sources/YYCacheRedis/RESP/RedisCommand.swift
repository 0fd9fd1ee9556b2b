public import NIOCore

/// A command ready to send: its arguments written as a RESP array of bulk strings.
///
/// Arguments are bytes, so keys and values may hold anything (newlines, `*`, `$`, NUL).
public struct RedisCommand: Sendable {
    /// The encoded command.
    public private(set) var bytes: ByteBuffer
    /// The command's name, for errors and logs.
    public let name: String

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
        var bytes = ByteBuffer()
        bytes.reserveCapacity(16 + name.utf8.count + arguments.reduce(0) { $0 + $1.readableBytes + 16 })
        bytes.writeStaticString("*")
        bytes.writeString(String(arguments.count + 1))
        bytes.writeStaticString("\r\n")
        Self.appendBulk(ByteBuffer(string: name), to: &bytes)
        for argument in arguments { Self.appendBulk(argument, to: &bytes) }
        self.bytes = bytes
    }

    private static func appendBulk(_ argument: ByteBuffer, to bytes: inout ByteBuffer) {
        bytes.writeStaticString("$")
        bytes.writeString(String(argument.readableBytes))
        bytes.writeStaticString("\r\n")
        bytes.writeImmutableBuffer(argument)
        bytes.writeStaticString("\r\n")
    }
}
