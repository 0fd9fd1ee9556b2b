import NIOCore

/// Reads RESP2 replies from bytes as they arrive, refusing what a hostile or broken server could
/// use to make the client allocate without bound or loop forever.
///
/// Limits: a bulk string longer than `maximumBulkLength` is refused from its header, before any of
/// it is read; status, error and integer lines end within `maximumLineLength` bytes; arrays nest at
/// most `maximumDepth` deep and hold at most `maximumArrayCount` elements (nothing is reserved
/// ahead from a count the server sent).
struct RESPParser: Sendable {
    var maximumBulkLength: Int
    var maximumLineLength = 64 * 1024
    var maximumDepth = 8
    var maximumArrayCount = 1 << 20

    /// Why the bytes are not RESP.
    struct Malformed: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    /// The next complete reply, consumed from `buffer`; `nil`, with `buffer` untouched, when the
    /// reply is not complete yet.
    func parse(_ buffer: inout ByteBuffer) throws(Malformed) -> RESPValue? {
        var cursor = buffer
        guard let value = try parseValue(&cursor, depth: 0) else { return nil }
        buffer = cursor
        return value
    }

    private func parseValue(_ buffer: inout ByteBuffer, depth: Int) throws(Malformed) -> RESPValue? {
        guard let type = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return nil }
        switch type {
        case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "$"), UInt8(ascii: "*"):
            break
        default:
            throw Malformed(description: "a reply cannot start with byte 0x\(String(type, radix: 16))")
        }
        guard var line = try readLine(&buffer) else { return nil }
        line.moveReaderIndex(forwardBy: 1)
        switch type {
        case UInt8(ascii: "+"):
            return .simpleString(String(buffer: line))
        case UInt8(ascii: "-"):
            return .error(String(buffer: line))
        case UInt8(ascii: ":"):
            return .integer(try integer(line))
        case UInt8(ascii: "$"):
            let length = try integer(line)
            if length == -1 { return .bulkString(nil) }
            guard length >= 0 else { throw Malformed(description: "negative bulk string length \(length)") }
            guard length <= maximumBulkLength else {
                throw Malformed(description: "bulk string of \(length) bytes is over the limit of \(maximumBulkLength)")
            }
            guard buffer.readableBytes >= Int(length) + 2 else { return nil }
            let bytes = Self.readBulk(length: Int(length), from: &buffer)
            guard buffer.readInteger(as: UInt16.self) == 0x0D0A else {
                throw Malformed(description: "bulk string of \(length) bytes is not followed by CRLF")
            }
            return .bulkString(bytes)
        default:  // "*"
            let count = try integer(line)
            if count == -1 { return .array(nil) }
            guard count >= 0, count <= maximumArrayCount else {
                throw Malformed(description: "array of \(count) elements is out of range")
            }
            guard depth < maximumDepth else { throw Malformed(description: "arrays nested deeper than \(maximumDepth)") }
            var elements: [RESPValue] = []
            for _ in 0..<count {
                guard let element = try parseValue(&buffer, depth: depth + 1) else { return nil }
                elements.append(element)
            }
            return .array(elements)
        }
    }

    /// The bulk string's bytes: a slice of `buffer` when the reply ends where the bytes received
    /// so far end, a copy when more bytes follow it.
    ///
    /// A slice shares `buffer`'s storage. When bytes follow the reply (the next replies of a
    /// pipeline, or the start of one), the decoder keeps that storage and appends the next reads
    /// to it, and while a slice is held each append first copies the whole storage. Copying the
    /// reply out once costs less (`Benchmarks/README.md`, "Measured design choices").
    private static func readBulk(length: Int, from buffer: inout ByteBuffer) -> ByteBuffer {
        let slice = buffer.readSlice(length: length)!
        guard buffer.readableBytes > 2 else { return slice }
        var copy = ByteBuffer()
        copy.reserveCapacity(length)
        copy.writeImmutableBuffer(slice)
        return copy
    }

    /// The next line (type byte included, CRLF excluded), or `nil` when its end has not arrived.
    private func readLine(_ buffer: inout ByteBuffer) throws(Malformed) -> ByteBuffer? {
        let view = buffer.readableBytesView
        let searched = view.prefix(maximumLineLength + 2)
        guard let cr = searched.firstIndex(of: 0x0D) else {
            if view.count > maximumLineLength + 1 {
                throw Malformed(description: "no line end within \(maximumLineLength) bytes")
            }
            return nil
        }
        let lineLength = cr - view.startIndex
        guard buffer.readableBytes >= lineLength + 2 else { return nil }
        guard buffer.getInteger(at: buffer.readerIndex + lineLength + 1, as: UInt8.self) == 0x0A else {
            throw Malformed(description: "a CR inside a reply line")
        }
        let line = buffer.readSlice(length: lineLength)!
        buffer.moveReaderIndex(forwardBy: 2)
        return line
    }

    /// The decimal integer of a whole line: an optional `-` and 1 to 19 digits.
    private func integer(_ line: ByteBuffer) throws(Malformed) -> Int64 {
        let bytes = line.readableBytesView
        var digits = bytes[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 19 else {
            throw Malformed(description: "'\(String(buffer: line))' is not an integer")
        }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                throw Malformed(description: "'\(String(buffer: line))' is not an integer")
            }
            let (product, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = product.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { throw Malformed(description: "'\(String(buffer: line))' overflows 64 bits") }
            value = sum
        }
        return negative ? -value : value
    }
}

/// NIO's adapter: turns the connection's bytes into ``RESPValue``s.
struct RESPReplyDecoder: ByteToMessageDecoder {
    typealias InboundOut = RESPValue
    let parser: RESPParser

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let value = try parser.parse(&buffer) else { return .needMoreData }
        context.fireChannelRead(Self.wrapInboundOut(value))
        return .continue
    }

    /// Moves the unread bytes to the front of the buffer only when they are at most an eighth of
    /// the space that frees, or 4 MB have been read.
    ///
    /// With replies pipelined back to back the unread part is usually the start of the next large
    /// reply, which NIO's default (reclaim once 2 KB are read) moved on nearly every read. Here
    /// the bytes moved are at most an eighth of the bytes read, and the buffer still stays within
    /// a few times the largest reply.
    func shouldReclaimBytes(buffer: ByteBuffer) -> Bool {
        buffer.readerIndex >= 4 << 20 || (buffer.readerIndex >= 2048 && buffer.readableBytes <= buffer.readerIndex / 8)
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // What is left at the end is a reply cut short: dropped, and the requests waiting for it
        // fail when the connection closes.
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
