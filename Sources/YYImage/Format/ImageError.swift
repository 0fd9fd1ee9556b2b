import Foundation
import YYDispatch

/// Why an image could not be decoded or encoded.
public enum ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are no image type YYImage decodes.
    case unknownFormat
    /// The type is recognised but has no decoder or encoder here: HEIC is never encoded, and a
    /// package built without a codec's trait has neither.
    case unsupportedType(ImageType)
    /// The data ended before the image did (and was said to be final).
    case truncated(ImageType)
    /// The file breaks its format's rules; the text says where and how.
    case malformed(ImageType, String)
    /// A feature of the format this decoder does not handle.
    case unsupportedFeature(ImageType, String)
    /// The image is bigger than `ImageDecoder.Options.maxPixelCount` allows.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// A frame index past the frames decoded so far.
    case frameOutOfRange(index: Int, count: Int)
    /// `update(data:final:)` was called with data that does not extend what came before, or
    /// after the data was final.
    case invalidUpdate(String)
    /// The encoder was given nothing to encode or values it cannot write.
    case invalidInput(String)
    /// A processing parameter out of its range (a size of 0, a NaN sigma, a crop outside the
    /// image); `name` is the parameter, the text says what was wrong.
    case invalidParameter(name: String, String)
    /// The C codec reported an error.
    case codec(ImageType, String)
    /// A file could not be read or written; the text is the system's reason.
    case fileSystem(path: String, String)
    /// The work was stopped before it finished: a checkpoint (a deadline passed, a caller gave
    /// up) said so.
    case cancelled

    /// A plain-language account of the error.
    public var description: String {
        switch self {
        case .unknownFormat: "unknown image format"
        case .unsupportedType(let type): "\(type.rawValue) is recognised but not supported"
        case .truncated(let type): "\(type.rawValue) data is truncated"
        case .malformed(let type, let detail): "malformed \(type.rawValue): \(detail)"
        case .unsupportedFeature(let type, let detail): "unsupported \(type.rawValue) feature: \(detail)"
        case .tooManyPixels(let width, let height, let limit): "image of \(width)x\(height) pixels exceeds the limit of \(limit) pixels"
        case .frameOutOfRange(let index, let count): "frame \(index) is out of range (\(count) frames)"
        case .invalidUpdate(let detail): "invalid update: \(detail)"
        case .invalidInput(let detail): "invalid input: \(detail)"
        case .invalidParameter(let name, let detail): "invalid \(name): \(detail)"
        case .codec(let type, let detail): "\(type.rawValue) codec error: \(detail)"
        case .fileSystem(let path, let detail): "\(path): \(detail)"
        case .cancelled: "cancelled"
        }
    }
}

extension ImageError {
    /// The bytes of the file at `path`, or ``fileSystem(path:_:)`` with the system's reason.
    static func readFile(atPath path: String) throws(ImageError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .fileSystem(path: path, "cannot read: \(reason(for: path, access: R_OK, error))")
        }
    }

    /// Writes `data` to `url` (atomically when it is a regular file, in place when it is a device
    /// or a pipe), or throws ``fileSystem(path:_:)`` with the system's reason.
    static func writeFile(_ data: Data, to url: URL) throws(ImageError) {
        do {
            try FileOutput.write(data, toPath: url.path)
        } catch {
            let folder = url.deletingLastPathComponent().path
            throw .fileSystem(path: url.path, "cannot write: \(reason(for: folder, access: W_OK, error))")
        }
    }

    /// Why `path` could not be used: the system's words for what `access(2)` finds ("No such
    /// file or directory", "Permission denied"), else Foundation's description of `error`.
    private static func reason(for path: String, access mode: Int32, _ error: any Error) -> String {
        if access(path, mode) != 0, let message = strerror(errno) { return String(cString: message) }
        return error.localizedDescription
    }
}
