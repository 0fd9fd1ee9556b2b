import Foundation

/// Keys as the levels below memory store them: the disk, and shared tiers (through `Cache`, and
/// through the image pipeline, which calls its tier itself).
///
/// Swift compares strings by canonical equivalence (`"é" == "e\u{301}"`), and so does the memory
/// cache's dictionary; the disk's manifest and a shared tier compare bytes. Non-ASCII keys are
/// therefore stored in their canonical composed form (NFC), so that every level agrees on which
/// keys are equal.
package enum CanonicalKey {
    /// `key` in NFC; an ASCII key (the usual one) as it is, after a scan of its bytes.
    package static func of(_ key: String) -> String {
        key.utf8.allSatisfy { $0 < 0x80 } ? key : key.precomposedStringWithCanonicalMapping
    }
}
