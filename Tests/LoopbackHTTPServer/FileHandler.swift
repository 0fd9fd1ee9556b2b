public import Foundation

extension LoopbackHTTPServer {
    /// A handler that serves the files of `directory` (no subfolders) with an ETag, answering
    /// `If-None-Match` with 304. `cacheControl` goes out with every file (default `no-cache`,
    /// so that a cache revalidates each time and a second run shows a 304).
    public static func files(in directory: URL, cacheControl: String = "no-cache") -> Handler {
        { request in
            let name = request.path.split(separator: "?").first.map { String($0.dropFirst()) } ?? ""
            let url = directory.appendingPathComponent(name.removingPercentEncoding ?? name)
            guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."),
                let bytes = FileManager.default.contents(atPath: url.path)
            else {
                return .response(status: 404, body: Array("not found\n".utf8))
            }
            let modified = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? Date(timeIntervalSince1970: 0)
            let etag = "\"\(bytes.count)-\(Int(modified.timeIntervalSince1970))\""
            if request.header("If-None-Match") == etag {
                return .response(status: 304, headers: [("ETag", etag), ("Cache-Control", cacheControl)])
            }
            return .response(
                headers: [("Content-Type", contentType(of: url)), ("ETag", etag), ("Cache-Control", cacheControl)],
                body: [UInt8](bytes))
        }
    }

    private static func contentType(of url: URL) -> String {
        switch url.pathExtension.lowercased() {
        case "png": "image/png"
        case "gif": "image/gif"
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        case "bmp": "image/bmp"
        default: "application/octet-stream"
        }
    }
}
