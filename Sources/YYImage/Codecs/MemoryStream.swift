/// A file in memory that C codecs read, write and seek through their I/O callbacks (libtiff,
/// OpenJPEG): reads come from `bytes`, writes overwrite or extend it at `position`.
///
/// The callbacks reach it through an unretained pointer (`Unmanaged`), so the caller keeps it
/// alive for as long as the C object that holds the pointer.
final class MemoryStream {
    /// The file's bytes.
    private(set) var bytes: [UInt8]
    /// Where the next read or write starts.
    private(set) var position = 0

    /// A stream over `bytes`, positioned at the start.
    init(_ bytes: [UInt8] = []) {
        self.bytes = bytes
    }

    /// Copies up to `count` bytes at the position into `buffer`; returns how many were copied.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        let available = max(0, min(count, bytes.count - position))
        guard available > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: source.baseAddress! + position, byteCount: available)
        }
        position += available
        return available
    }

    /// Writes `count` bytes at the position, extending the file (with zeros over any gap a seek
    /// past the end left) as needed.
    func write(from buffer: UnsafeRawPointer, count: Int) -> Int {
        guard count > 0 else { return 0 }
        if position > bytes.count { bytes.append(contentsOf: repeatElement(0, count: position - bytes.count)) }
        let overlap = min(count, bytes.count - position)
        let source = UnsafeRawBufferPointer(start: buffer, count: count)
        bytes.replaceSubrange(position..<(position + overlap), with: source)
        position += count
        return count
    }

    /// Moves the position; `false` (and no move) for a negative target.
    @discardableResult
    func seek(to offset: Int) -> Bool {
        guard offset >= 0 else { return false }
        position = offset
        return true
    }

    /// An unretained pointer for a C library's user-data slot.
    var opaque: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The stream behind a pointer made by ``opaque``.
    static func from(_ pointer: UnsafeMutableRawPointer?) -> MemoryStream {
        Unmanaged<MemoryStream>.fromOpaque(pointer!).takeUnretainedValue()
    }
}
