import Foundation
import YYDispatch
import YYImage

/// Where `yy fetch --out` writes: one file, or a folder of files named after the URLs.
struct FetchDestination {
    private let path: String
    private let isFolder: Bool

    /// `nil` without `--out`. A path that is a folder, ends in `/`, or serves several URLs is a
    /// folder (created if missing); otherwise a file.
    init?(_ out: String?, urlCount: Int) throws(ToolFailure) {
        guard let out else { return nil }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory)
        isFolder = (exists && isDirectory.boolValue) || out.hasSuffix("/") || urlCount > 1
        path = out
        if isFolder && !exists {
            do {
                try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            } catch {
                throw .failure("cannot create \(out): \(error.localizedDescription)")
            }
        }
    }

    /// Writes `data` and returns the path it went to.
    func write(_ data: Data, for url: URL, type: ImageType) throws -> String {
        let target = isFolder ? (path as NSString).appendingPathComponent(Self.uniqueName(for: url, type: type, in: path)) : path
        try FileOutput.write(data, toPath: target)
        return target
    }

    /// The URL's last path component made safe (letters, digits, `.`, `_`, `-`, `@`; no leading dot;
    /// at most 200 characters before the extension), with the type's extension when it has none,
    /// and `-1`, `-2`, … before the extension when a file of that name exists.
    static func uniqueName(for url: URL, type: ImageType, in folder: String) -> String {
        let last = url.lastPathComponent.removingPercentEncoding ?? url.lastPathComponent
        var safe = String(last.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-@".unicodeScalars.contains(scalar)) ? Character(scalar) : "_"
        })
        while safe.hasPrefix(".") { safe.removeFirst() }
        if safe.isEmpty || safe == "_" { safe = "image" }
        var stem = (safe as NSString).deletingPathExtension
        var ext = (safe as NSString).pathExtension
        if ext.isEmpty { ext = type.fileExtension }
        if stem.isEmpty { stem = "image" }
        // File names are limited to 255 bytes (the characters are ASCII by now): a URL's last
        // component is not, so long ones are cut, leaving room for the extension and a counter.
        stem = String(stem.prefix(200))
        ext = String(ext.prefix(16))
        var name = "\(stem).\(ext)"
        var counter = 1
        while FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(name)) {
            name = "\(stem)-\(counter).\(ext)"
            counter += 1
        }
        return name
    }
}
