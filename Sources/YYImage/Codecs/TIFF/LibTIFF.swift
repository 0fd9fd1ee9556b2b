#if LibTIFF
internal import CTIFF
internal import Foundation

/// A libtiff handle on a file in memory, for reading (`"r"`) or writing (`"w"`).
///
/// libtiff reports errors through a handler; this one keeps the last message per handle (and
/// silences warnings), so that failures become typed errors instead of lines on stderr. Calls on
/// one handle must not overlap.
final class LibTIFF {
    /// The libtiff handle.
    let tiff: OpaquePointer
    /// The file read or written.
    let stream: MemoryStream
    /// The last error libtiff reported on this handle.
    private let messages: Messages

    /// Where the error handler leaves its text (a class, so the C callback can reach it).
    private final class Messages {
        var lastError: String?
    }

    /// Opens `stream` in `mode` ("r" or "w"). `maxAllocation` caps any single buffer libtiff
    /// allocates for itself (its strip and tile buffers, its tag arrays).
    init(_ stream: MemoryStream, mode: String, maxAllocation: Int) throws(ImageError) {
        self.stream = stream
        let messages = Messages()
        self.messages = messages
        guard let options = TIFFOpenOptionsAlloc() else { throw .codec(.tiff, "out of memory") }
        defer { TIFFOpenOptionsFree(options) }
        TIFFOpenOptionsSetMaxSingleMemAlloc(options, tmsize_t(maxAllocation))
        let user = Unmanaged.passUnretained(messages).toOpaque()
        TIFFOpenOptionsSetErrorHandlerExtR(
            options,
            { _, user, module, format, arguments in
                let messages = Unmanaged<LibTIFF.Messages>.fromOpaque(user!).takeUnretainedValue()
                messages.lastError = LibTIFF.format(module: module, format: format, arguments)
                return 1
            }, user)
        TIFFOpenOptionsSetWarningHandlerExtR(options, { _, _, _, _, _ in 1 }, user)
        // "m": no memory mapping of a file that is already in memory (reads copy from it).
        let handle = TIFFClientOpenExt(
            "memory", mode == "r" ? "rm" : mode, stream.opaque,
            { user, buffer, count in tmsize_t(MemoryStream.from(user).read(into: buffer!, count: Int(count))) },
            { user, buffer, count in tmsize_t(MemoryStream.from(user).write(from: buffer!, count: Int(count))) },
            { user, offset, whence in
                let stream = MemoryStream.from(user)
                let base =
                    switch whence {
                    case SEEK_CUR: stream.position
                    case SEEK_END: stream.bytes.count
                    default: 0
                    }
                let (target, overflow) = base.addingReportingOverflow(Int(truncatingIfNeeded: offset))
                guard !overflow, stream.seek(to: target) else { return toff_t.max }
                return toff_t(target)
            },
            { _ in 0 },
            { user in toff_t(MemoryStream.from(user).bytes.count) },
            { _, _, _ in 0 },
            { _, _, _ in },
            options)
        guard let handle else {
            throw .malformed(.tiff, messages.lastError ?? "libtiff cannot open the file")
        }
        self.tiff = handle
    }

    deinit {
        TIFFClose(tiff)
    }

    /// The last error libtiff reported, or `fallback`.
    func error(_ fallback: String) -> String {
        messages.lastError ?? fallback
    }

    /// A field's value through `TIFFVGetFieldDefaulted` (C variadics do not import into Swift;
    /// their `va_list` forms do). `nil` when the field is absent and has no default.
    func field<Value: BinaryInteger>(_ tag: Int32, as _: Value.Type) -> Value? {
        var value: Value = 0
        let found = withUnsafeMutablePointer(to: &value) { pointer in
            withVaList([pointer]) { TIFFVGetFieldDefaulted(tiff, UInt32(tag), $0) }
        }
        return found == 1 ? value : nil
    }

    /// A field of `count` bytes (an ICC profile, an XMP packet): `nil` when absent.
    func bytesField(_ tag: Int32) -> [UInt8]? {
        var count: UInt32 = 0
        var data: UnsafeMutableRawPointer?
        let found = withUnsafeMutablePointer(to: &count) { countPointer in
            withUnsafeMutablePointer(to: &data) { dataPointer in
                withVaList([countPointer, dataPointer]) { TIFFVGetField(tiff, UInt32(tag), $0) }
            }
        }
        guard found == 1, let data, count > 0 else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(count)))
    }

    /// Sets a field through `TIFFVSetField`; integer values are passed as C's promoted `int` or
    /// `uint32_t`, which is what libtiff reads for every integer tag.
    func setField(_ tag: Int32, _ values: any CVarArg...) throws(ImageError) {
        let ok = withVaList(values) { TIFFVSetField(tiff, UInt32(tag), $0) }
        guard ok == 1 else { throw .codec(.tiff, error("tag \(tag) was refused")) }
    }

    /// libtiff's message: `format` with its arguments, after the module name.
    private static func format(module: UnsafePointer<CChar>?, format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) -> String {
        guard let format, let arguments else { return "unknown error" }
        var buffer = [CChar](repeating: 0, count: 512)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        let text = string(buffer)
        guard let module else { return text }
        return "\(String(cString: module)): \(text)"
    }

    /// The text in a C character buffer libtiff wrote, up to its first NUL (or its end, should
    /// libtiff have left none).
    static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
#endif
