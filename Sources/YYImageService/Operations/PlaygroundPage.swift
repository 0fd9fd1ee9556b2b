import Foundation
import Hummingbird
import NIOCore

/// `GET /` with `--playground`: a source image and a grid of transformations, each with the URL
/// that made it, so that a new user sees the URL API at work. URLs are signed by the server
/// when a key is configured, and then only for sources the operator chose (files under the root,
/// ``ImageServiceConfiguration/playgroundSources``): a page that signed any `?src=` would hand
/// out signed URLs for every source to anyone.
struct PlaygroundPage: Sendable {
    let signature: URLSignature?
    let localRoot: String?
    /// Sources besides the root's files that the page may show (and sign).
    let chosenSources: [String]

    /// The transformations shown, as option paths.
    static let examples = [
        "rs:fit:300:300", "rs:fill:300:200/g:sm", "rs:fill:200:200/g:ce", "rs:fit:300:300/bl:3", "rs:fit:300:300/sh:1.5",
        "rs:fit:300:150:0:1/bg:ffd700", "rs:fit:300:300/rot:90", "c:0.5:0.5/rs:fit:300:300", "rs:fit:300:300/f:webp",
        "rs:fit:300:300/f:avif", "rs:fit:300:300/q:20/f:jpg", "rs:force:300:120", "rs:fit:260:260/pd:20/bg:f1faee",
        "rs:fit:300:300/dt:1:1d3557:f1faee", "rs:fit:300:300/a:20:1.3:1.5", "rs:fill:300:200/gr:0.8:000:down:0.4",
        "rs:fit:300:300/mc:1:c08552", "rs:fit:300:300/ush:always:2:12", "rs:fit:300:300/ba:12:0.25:0.25:0.5:0.5",
        "rs:fit:300:300/f:best",
    ]

    /// Transformations that name the source again: a watermark (the source itself, small, in a
    /// corner) and a fallback image (the source, for a source that does not exist).
    static func examples(naming source: String) -> [(options: String, source: String)] {
        let encoded = Array(source.utf8).base64URLEncoded
        return [
            ("rs:fit:300:300/wm:0.7:soea:8:8:0.25/wmu:\(encoded)", source),
            ("rs:fit:300:300/fiu:\(encoded)", source + ".missing"),
        ]
    }

    func page(source requested: String?) -> Response {
        let refused = requested.map { !mayShow($0) } ?? false
        // The root folder is listed once a page: for the default source and the links.
        let offered = chosenSources + rootImages()
        let source = refused ? nil : requested ?? offered.first
        var figures = ""
        if let source {
            let original = url(options: "", source: source)
            figures += figure(url: original, caption: "the source, unchanged")
            for options in Self.examples {
                figures += figure(url: url(options: options, source: source), caption: options)
            }
            for (options, shown) in Self.examples(naming: source) {
                figures += figure(url: url(options: options, source: shown), caption: shown == source ? options : options + " (a missing source)")
            }
        }
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>yy serve playground</title>
            <style>
            body { font: 15px/1.4 system-ui, sans-serif; margin: 2em; color: #222 }
            main { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 1.5em }
            figure { margin: 0; padding: 10px; border: 1px solid #ddd; border-radius: 6px; background: #fafafa }
            img { max-width: 300px; max-height: 300px; display: block; margin-bottom: .5em; background: repeating-conic-gradient(#eee 0 25%, #fff 0 50%) 0 0/16px 16px }
            code { font-size: 12px; word-break: break-all }
            </style></head>
            <body>
            <h1>yy serve playground</h1>
            <p>Each image below is a URL of the form <code>/%signature/%options/plain/%source@%extension</code>
            (imgproxy's URL API). Change the source: <form method="get"><input name="src" size="60" value="\(escape(source ?? ""))"> <button>show</button></form></p>
            \(refused ? "<p>This server signs its URLs: the playground shows only the sources its operator chose.</p>" : "")
            \(source == nil && !refused ? "<p>Give a source: <code>?src=local:///photo.jpg</code> (with <code>--root</code>) or an http(s) URL.</p>" : "")
            \(links(to: offered.prefix(chosenSources.count + 20)))
            <main>
            \(figures)</main>
            </body></html>
            """
        return Response(
            status: refused ? .forbidden : .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// A path for `options` and `source`, signed when a key is configured.
    func url(options: String, source: String) -> String {
        // Readable as imgproxy's documentation writes them: only what would end the path or the
        // source early (`?`, `#`, `@`, `%`, spaces) is escaped.
        let encoded =
            source.addingPercentEncoding(withAllowedCharacters: CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "@%"))) ?? source
        let path = (options.isEmpty ? "" : "/" + options) + "/plain/" + encoded
        return "/" + (signature?.signature(for: path) ?? "insecure") + path
    }

    private func figure(url: String, caption: String) -> String {
        "<figure><img src=\"\(escape(url))\" alt=\"\(escape(caption))\" loading=\"lazy\"><figcaption><b>\(escape(caption))</b><br><code>\(escape(url))</code></figcaption></figure>\n"
    }

    /// Whether the page may show `source`: any source when nothing is signed; with a key, a
    /// chosen source or a path under the root (the fetcher keeps it there).
    func mayShow(_ source: String) -> Bool {
        guard signature != nil else { return true }
        if chosenSources.contains(source) { return true }
        guard localRoot != nil, source.hasPrefix("local:///") else { return false }
        let components = source.dropFirst("local:///".count).split(separator: "/", omittingEmptySubsequences: false)
        return !components.contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }

    /// The images directly in the root folder, as `local://` sources.
    private func rootImages() -> [String] {
        guard let localRoot, let names = try? FileManager.default.contentsOfDirectory(atPath: localRoot) else { return [] }
        let images = names.filter { ["jpg", "jpeg", "png", "gif", "webp", "svg"].contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
        return images.map { "local:///" + $0 }
    }

    /// Links to `sources`, the ones the operator chose, when there are any.
    private func links(to sources: ArraySlice<String>) -> String {
        guard !sources.isEmpty else { return "" }
        let links = sources.map { source in
            let query = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            return "<a href=\"?src=\(escape(query))\"><code>\(escape(source))</code></a>"
        }
        return "<p>Sources: " + links.joined(separator: " · ") + "</p>"
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
