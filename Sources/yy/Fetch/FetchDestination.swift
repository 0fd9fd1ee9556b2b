import Foundation
import YYDispatch
import YYImage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `yy fetch --out` writes: one file, or a folder of files named after the URLs.
struct FetchDestination {
    private let path: String
    private let isFolder: Bool
    /// The next counter to try for each name (`a.png` → 2 after `a-1.png`), so that many URLs
    /// with one last component take one try each instead of walking past every earlier one.
    private var nextCounters: [String: Int] = [:]

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
    mutating func write(_ data: Data, for url: URL, type: ImageType) throws -> String {
        guard isFolder else {
            try FileOutput.write(data, toPath: path)
            return path
        }
        let target = try claimUniqueName(for: url, type: type)
        do {
            try FileOutput.write(data, toPath: target)
        } catch {
            unlink(target)  // the empty file that claimed the name
            throw error
        }
        return target
    }

    /// Creates an empty file in the folder under the URL's safe name, or with `-1`, `-2`, … before
    /// the extension when a file of that name exists, and returns its path for the bytes to
    /// replace. `O_EXCL` makes looking and taking one step: another `yy fetch` writing into the
    /// same folder cannot pick the name in between and have one download overwrite the other.
    private mutating func claimUniqueName(for url: URL, type: ImageType) throws(ToolFailure) -> String {
        let (stem, ext) = Self.safeName(for: url, type: type)
        let key = "\(stem).\(ext)"
        var counter = nextCounters[key] ?? 0
        while true {
            let name = counter == 0 ? key : "\(stem)-\(counter).\(ext)"
            let target = (path as NSString).appendingPathComponent(name)
            let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor >= 0 {
                close(descriptor)
                nextCounters[key] = counter + 1
                return target
            }
            let code = errno
            guard code == EEXIST else { throw .failure("cannot create \(target): \(String(cString: strerror(code)))") }
            counter += 1
        }
    }

    /// The URL's last path component made safe (letters, digits, `.`, `_`, `-`, `@`; no leading dot;
    /// at most 200 characters before the extension), as a stem and an extension: the type's
    /// extension when the name has none.
    static func safeName(for url: URL, type: ImageType) -> (stem: String, extension: String) {
        let last = url.lastPathComponent.removingPercentEncoding ?? url.lastPathComponent
        var safe = String(
            last.unicodeScalars.map { scalar -> Character in
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
        return (String(stem.prefix(200)), String(ext.prefix(16)))
    }
}
