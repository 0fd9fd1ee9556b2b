import Foundation
import YYImage
import YYWebImage

/// What `yy fetch` says about one URL.
struct FetchReport {
    var url: String
    var source: String?
    var status: Int?
    var type: String?
    var bytes: Int?
    var width: Int?
    var height: Int?
    var frames: Int?
    var error: String?
    /// Where `--out` put the bytes.
    var savedTo: String?

    /// What a fetched image says of itself.
    init(url: String, response: ImageResponse) {
        self.url = url
        source = response.source.rawValue
        status = response.statusCode
        type = response.image.type.rawValue
        bytes = response.data?.count
        width = response.image.pixelWidth
        height = response.image.pixelHeight
        frames = response.image.frameCount
    }

    /// A fetch that failed.
    init(url: String, error: ImagePipelineError) {
        self.url = url
        self.error = error.description
    }

    /// `URL: source status type WxH, N frame(s), B bytes[ → path]` or `URL: error: …`.
    func textLine() -> String {
        if let error { return "\(url): error: \(error)" }
        var line = "\(url): \(source ?? "?")"
        if let status { line += " \(status)" }
        line += " \(type ?? "?") \(width ?? 0)x\(height ?? 0), \(frames ?? 0) frame\(frames == 1 ? "" : "s"), \(bytes ?? 0) bytes"
        if let savedTo { line += " -> \(savedTo)" }
        return line
    }

    /// One JSON object; every field is present, `null` where it does not apply.
    func jsonLine() -> String {
        func string(_ value: String?) -> String {
            guard let value else { return "null" }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            let encoded = try? encoder.encode(value)
            return encoded.map { String(decoding: $0, as: UTF8.self) } ?? "null"
        }
        func number(_ value: Int?) -> String { value.map(String.init) ?? "null" }
        let fields = [
            ("url", string(url)), ("source", string(source)), ("status", number(status)), ("type", string(type)),
            ("bytes", number(bytes)), ("width", number(width)), ("height", number(height)), ("frames", number(frames)),
            ("error", string(error)), ("file", string(savedTo)),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}

/// One URL's result as `yy fetch` keeps it until it is saved and reported: the report, and the
/// original bytes for `--out`, but not the decoded image, so that memory does not grow with
/// every URL by a decoded image's size.
struct FetchOutcome {
    var report: FetchReport
    /// The original bytes and their type, when `--out` is to save them.
    var original: (data: Data, type: ImageType)?

    init(report: FetchReport) {
        self.report = report
    }

    init(_ response: ImageResponse, keepingOriginal: Bool, url: String) {
        report = FetchReport(url: url, response: response)
        if keepingOriginal, let data = response.data { original = (data, response.image.type) }
    }
}
