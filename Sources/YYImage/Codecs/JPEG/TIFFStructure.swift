/// A TIFF structure (EXIF's container) read entry by entry, every read bounds-checked.
struct TIFFStructure {
    /// One directory entry: its tag, type, value count and where its value sits (inline values
    /// of four bytes or fewer sit in the entry itself).
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: Int
        var valueOffset: Int
    }

    let bytes: [UInt8]
    let littleEndian: Bool

    /// The structure in `bytes` (starting at "II" or "MM"), or `nil` when the header is wrong.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8, bytes[0] == bytes[1], bytes[0] == 0x49 || bytes[0] == 0x4D else { return nil }
        self.bytes = bytes
        littleEndian = bytes[0] == 0x49
        guard u16(2) == 42 else { return nil }
    }

    func u16(_ offset: Int) -> UInt16? { littleEndian ? bytes.u16LE(offset) : bytes.u16BE(offset) }
    func u32(_ offset: Int) -> UInt32? { littleEndian ? bytes.u32LE(offset) : bytes.u32BE(offset) }

    /// IFD0's offset.
    var firstDirectory: Int? { u32(4).map(Int.init) }

    /// The entries of the directory at `offset` (those that can be read; at most 1,000).
    func entries(at offset: Int) -> [Entry] {
        guard let count = u16(offset) else { return [] }
        var entries: [Entry] = []
        for index in 0..<min(Int(count), 1000) {
            let at = offset + 2 + index * 12
            guard let tag = u16(at), let type = u16(at + 2), let count = u32(at + 4).map(Int.init) else { break }
            let size = count * (type == 3 ? 2 : type == 4 ? 4 : 1)
            let valueOffset = size <= 4 ? at + 8 : (u32(at + 8).map(Int.init) ?? bytes.count)
            entries.append(Entry(tag: tag, type: type, count: count, valueOffset: valueOffset))
        }
        return entries
    }

    /// The bytes of a byte-sized value (ASCII, BYTE, UNDEFINED) as stored; `nil` when empty,
    /// over 64 KiB or out of bounds.
    func value(of entry: Entry) -> ArraySlice<UInt8>? {
        guard entry.count > 0, entry.count <= 65_535, entry.valueOffset <= bytes.count - entry.count else { return nil }
        return bytes[entry.valueOffset..<(entry.valueOffset + entry.count)]
    }

    /// An ASCII value (type 2), without its trailing NULs and spaces; `nil` when empty or unreadable.
    func ascii(_ entry: Entry) -> String? {
        guard entry.type == 2, let value = value(of: entry) else { return nil }
        let text = String(decoding: value, as: UTF8.self).trimmingCharacters(in: ["\0", " "])
        return text.isEmpty ? nil : text
    }

    /// A LONG (type 4) value, such as a sub-directory's offset.
    func long(_ entry: Entry) -> Int? {
        entry.type == 4 ? u32(entry.valueOffset).map(Int.init) : nil
    }
}

extension String {
    /// The string without `characters` at either end.
    fileprivate func trimmingCharacters(in characters: Set<Character>) -> String {
        var slice = Substring(self)
        while let first = slice.first, characters.contains(first) { slice.removeFirst() }
        while let last = slice.last, characters.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
