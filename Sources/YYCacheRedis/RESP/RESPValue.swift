public import NIOCore

/// A reply of a Redis server in RESP2, the protocol every Redis since 2.0 speaks.
public enum RESPValue: Sendable, Hashable {
    /// `+OK`: a short status text.
    case simpleString(String)
    /// `-ERR message`: the server refused the command. The first word is the error's code
    /// (`ERR`, `WRONGTYPE`, `OOM`, `NOAUTH`, …).
    case error(String)
    /// `:42`.
    case integer(Int64)
    /// `$3 abc`: binary-safe bytes, or `nil` for the null reply (`$-1`, a missing key).
    case bulkString(ByteBuffer?)
    /// `*2 …`: a list of replies, or `nil` for the null array.
    case array([RESPValue]?)
}
