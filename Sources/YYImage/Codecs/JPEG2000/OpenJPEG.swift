#if OpenJPEG
internal import COpenJPEG
internal import Foundation

/// One OpenJPEG codec and stream over a file in memory, reading or writing; destroyed together.
///
/// OpenJPEG reports errors through a callback; the last message is kept here and becomes the
/// text of the typed error.
final class OpenJPEG {
    /// Which container the bytes use.
    enum Format {
        /// The JP2 file format (boxes around a codestream).
        case jp2
        /// A bare JPEG 2000 codestream.
        case j2k

        /// The format of `bytes`, read from its first bytes.
        init(of bytes: [UInt8]) {
            self = bytes.starts(with: [0xFF, 0x4F, 0xFF, 0x51]) ? .j2k : .jp2
        }
    }

    let codec: UnsafeMutablePointer<opj_codec_t?>
    let stream: UnsafeMutablePointer<opj_stream_t?>
    let memory: MemoryStream
    private let messages: Messages

    private final class Messages {
        var lastError: String?
    }

    /// A codec reading `bytes` (`decoding` true) or writing into an empty stream.
    init(_ format: Format, decoding bytes: [UInt8]?) throws(ImageError) {
        let memory = MemoryStream(bytes ?? [])
        let isInput = bytes != nil
        let codecFormat = format == .jp2 ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K
        guard let codec = isInput ? opj_create_decompress(codecFormat) : opj_create_compress(codecFormat),
            let stream = opj_stream_create(OPJ_SIZE_T(OPJ_J2K_STREAM_CHUNK_SIZE), isInput ? 1 : 0)
        else { throw .codec(.jpeg2000, "OpenJPEG could not start") }
        self.codec = codec
        self.stream = stream
        self.memory = memory
        self.messages = Messages()
        opj_set_error_handler(
            codec,
            { message, user in
                let messages = Unmanaged<OpenJPEG.Messages>.fromOpaque(user!).takeUnretainedValue()
                messages.lastError = message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
            }, Unmanaged.passUnretained(messages).toOpaque())
        opj_stream_set_user_data(stream, memory.opaque, nil)
        opj_stream_set_user_data_length(stream, OPJ_UINT64(memory.bytes.count))
        opj_stream_set_read_function(stream) { buffer, count, user in
            let read = MemoryStream.from(user).read(into: buffer!, count: Int(count))
            return read == 0 ? OPJ_SIZE_T.max : OPJ_SIZE_T(read)  // (OPJ_SIZE_T)-1 ends the stream
        }
        opj_stream_set_write_function(stream) { buffer, count, user in
            OPJ_SIZE_T(MemoryStream.from(user).write(from: buffer!, count: Int(count)))
        }
        if isInput {
            // Reads may skip and seek only inside the file: OpenJPEG counts skipped bytes against
            // the length it was given, and asserts that it never passes it.
            opj_stream_set_skip_function(stream) { count, user in
                let memory = MemoryStream.from(user)
                let target = min(memory.bytes.count, max(0, memory.position + Int(count)))
                let moved = target - memory.position
                guard moved != 0 || count == 0 else { return -1 }
                memory.seek(to: target)
                return OPJ_OFF_T(moved)
            }
            opj_stream_set_seek_function(stream) { offset, user in
                let memory = MemoryStream.from(user)
                guard offset >= 0, Int(offset) <= memory.bytes.count else { return 0 }
                return memory.seek(to: Int(offset)) ? 1 : 0
            }
        } else {
            opj_stream_set_skip_function(stream) { count, user in
                let memory = MemoryStream.from(user)
                return memory.seek(to: memory.position + Int(count)) ? count : -1
            }
            opj_stream_set_seek_function(stream) { offset, user in
                MemoryStream.from(user).seek(to: Int(offset)) ? 1 : 0
            }
        }
    }

    deinit {
        opj_stream_destroy(stream)
        opj_destroy_codec(codec)
    }

    /// The last error OpenJPEG reported, or `fallback`.
    func error(_ fallback: String) -> String {
        messages.lastError ?? fallback
    }
}
#endif
