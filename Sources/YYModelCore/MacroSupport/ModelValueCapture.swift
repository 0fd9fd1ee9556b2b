/// What `@Model`'s generated `encode(to:)` uses when the type has a `modelDidEncode` hook: the
/// fields are first encoded into a ``JSONValue`` that the hook may edit.
@_documentation(visibility: internal)
public enum _ModelValueCapture {
    /// Runs `body` against an encoder that builds a value, with the settings of `encoder` when it
    /// is a ``ModelEncoder``'s, else the defaults.
    public static func capture(like encoder: any Encoder, _ body: (any Encoder) throws -> Void) throws -> JSONValue {
        let options = (encoder as? TreeEncoder)?.options ?? ModelEncoder()
        let capturing = TreeEncoder(options: options, codingPath: encoder.codingPath)
        try body(capturing)
        return (capturing.node ?? .object(EncodedNode.ObjectBox())).jsonValue
    }
}
