import YYDispatch

/// The data keys whose originals this pipeline is storing or removing, so that a copy read from
/// the shared tier goes onto the disk only if nothing newer of its key was stored meanwhile.
///
/// Two data jobs of one key can run at once: a `.refresh` request beside a plain one, or two
/// URLs that share a cache key. One may find the disk empty and ask the shared tier while the
/// other downloads a newer original and stores it; the older copy from the tier, written after,
/// replaced it on disk and was served as fresh for its own max-age.
///
/// A job wraps its look at the disk and the tier in a ``Lookup`` (``beginLookup(_:)`` …
/// ``endLookup(_:)``), and every store or removal of an original in ``beginWrite(_:)`` …
/// ``endWrite(_:)``. A write's start and its end both count, so a lookup learns of any write that
/// overlapped it, even one that began first: ``mayStore(_:)``.
final class OriginalWriteTracker: Sendable {
    /// A look for a key on the disk and in the shared tier.
    struct Lookup: Sendable {
        let key: String
        /// The key's ``KeyTraffic/changes`` when the lookup began.
        let changes: UInt64
    }

    /// What is under way for one key. Kept only while something is, so the table holds the keys
    /// in flight and no more; a ``Lookup`` lives no longer than its entry, so its count of
    /// changes is never compared with a later entry's.
    private struct KeyTraffic {
        var lookups = 0
        var writes = 0
        /// Writes begun plus writes ended, since the entry was made.
        var changes: UInt64 = 0

        var isIdle: Bool { lookups == 0 && writes == 0 }
    }

    private let traffic = Locked<[String: KeyTraffic]>([:])

    /// Starts a lookup of `key`; end it with ``endLookup(_:)``.
    func beginLookup(_ key: String) -> Lookup {
        traffic.withLock { traffic in
            traffic[key, default: KeyTraffic()].lookups += 1
            return Lookup(key: key, changes: traffic[key]!.changes)
        }
    }

    /// Whether what `lookup` found may be stored: no write of its key is under way, and none
    /// began or ended since the lookup began.
    func mayStore(_ lookup: Lookup) -> Bool {
        traffic.withLock { traffic in
            guard let current = traffic[lookup.key] else { return false }
            return current.writes == 0 && current.changes == lookup.changes
        }
    }

    /// Ends `lookup`.
    func endLookup(_ lookup: Lookup) {
        traffic.withLock { traffic in
            guard var current = traffic[lookup.key] else { return assertionFailure("endLookup without beginLookup") }
            current.lookups -= 1
            traffic[lookup.key] = current.isIdle ? nil : current
        }
    }

    /// Marks the start of a store or removal of `key`'s original; end it with ``endWrite(_:)``.
    func beginWrite(_ key: String) {
        traffic.withLock { traffic in
            traffic[key, default: KeyTraffic()].writes += 1
            traffic[key]!.changes &+= 1
        }
    }

    /// Marks the end of a store or removal begun with ``beginWrite(_:)``.
    func endWrite(_ key: String) {
        traffic.withLock { traffic in
            guard var current = traffic[key] else { return assertionFailure("endWrite without beginWrite") }
            current.writes -= 1
            current.changes &+= 1
            traffic[key] = current.isIdle ? nil : current
        }
    }

    /// How many keys have a lookup or a write under way (for tests: none once all ended).
    var keysInFlight: Int { traffic.withLock { $0.count } }
}
