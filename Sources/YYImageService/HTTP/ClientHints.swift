import HTTPTypes

/// The client hints a request sends, read when the service enables them (imgproxy's
/// `IMGPROXY_ENABLE_CLIENT_HINTS`): `Sec-CH-DPR` (or `DPR`) and `Sec-CH-Width` (or `Width`, in
/// device pixels) become the defaults of `dpr` and `width`, which the URL's options override.
struct ClientHints: Sendable, Equatable {
    /// The device pixel ratio, above 0 and at most 8.
    var dpr: Double?
    /// The width the image is shown at, in device pixels.
    var width: Int?

    /// The headers a response's `Vary` names (its answer depends on them) and `Accept-CH` asks for.
    static let headerNames = "Sec-CH-DPR, DPR, Sec-CH-Width, Width"

    /// No hints.
    init() {}

    /// The hints `headers` carry; a value that is not a number in range is no hint.
    init(_ headers: HTTPFields) {
        let dprText = headers[HTTPField.Name("Sec-CH-DPR")!] ?? headers[HTTPField.Name("DPR")!]
        let widthText = headers[HTTPField.Name("Sec-CH-Width")!] ?? headers[HTTPField.Name("Width")!]
        if let dpr = dprText.flatMap(Double.init), dpr > 0, dpr <= 8 { self.dpr = dpr }
        if let width = widthText.flatMap(Int.init), width > 0, width <= 1 << 24 { self.width = width }
    }

    /// `options` with the hints as their defaults: the DPR, and the width in CSS pixels (the
    /// hint over the DPR), as imgproxy sets them before the presets and the URL.
    func applied(to options: ProcessingOptions) -> ProcessingOptions {
        var options = options
        if let dpr { options.dpr = dpr }
        if let width { options.width = max(1, Int((Double(width) / options.dpr).rounded())) }
        return options
    }
}
