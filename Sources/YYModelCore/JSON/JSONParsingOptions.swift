/// Limits that keep hostile input from costing unbounded time or memory.
public struct JSONParsingOptions: Sendable, Equatable {
    /// The deepest nesting of arrays and objects accepted. Default 512, as Foundation's decoders.
    ///
    /// Parsing never recurses: any limit costs only heap while text becomes a ``JSONDocument``.
    /// What walks the result does recurse, one call per level: building a ``JSONValue`` (and
    /// releasing, comparing or writing it) and decoding with ``ModelDecoder`` or a `@Model` type.
    /// Building a `JSONValue` takes about 0.4 KB of stack a level in a release build and 0.9 KB in
    /// a debug one (Linux, x86-64; 10,000 levels overflow a debug build's 8 MB stack). Raise the
    /// limit for those only as far as the stacks of the threads that run them allow: 8 MB on
    /// Linux by default, 512 KB for secondary threads on Apple platforms.
    public var maximumDepth: Int
    /// The largest input accepted, in bytes. Default 1 GiB.
    public var maximumInputSize: Int

    /// Creates options; the defaults suit untrusted input.
    public init(maximumDepth: Int = 512, maximumInputSize: Int = 1 << 30) {
        self.maximumDepth = maximumDepth
        self.maximumInputSize = maximumInputSize
    }
}
