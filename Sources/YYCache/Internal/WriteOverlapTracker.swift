import YYDispatch

/// Tells a read that copies what it found into a faster level (a disk hit into memory, a shared
/// copy onto the disk) whether a write of the same key overlapped it, so that the copy never
/// lands over a newer value, nor brings back a removed one.
///
/// The reader wraps its look in a ``Lookup`` (``beginLookup(_:)`` … ``endLookup(_:)``), from
/// before it reads the slower level; every write or removal runs between ``beginWrite(_:)`` and
/// ``endWrite(_:)``. A write's start and its end both count as changes, so a lookup learns of any
/// write that overlapped it, even one that began before it. The reader stores its copy only if
/// ``mayStore(_:)`` says so, and asks again once it has stored it: if a write came in between,
/// the copy may have landed after the newer value, and the reader removes it (a miss is safe, a
/// stale hit is not). A writer that writes several levels one after the other learns from
/// ``isOverlapped(_:)`` whether another write of its key ran at the same time, so that the levels
/// may disagree.
///
/// Keys are kept only while something is under way for them, so the table holds no more than the
/// reads and writes in flight.
package final class WriteOverlapTracker<Key: Hashable & Sendable>: Sendable {
    /// A read of one key, from ``beginLookup(_:)``.
    package struct Lookup: Sendable {
        let key: Key
        /// The key's changes when the lookup began.
        let changes: UInt64
        /// The changes of every key (removals of everything) when the lookup began.
        let changesOfEveryKey: UInt64
    }

    private struct KeyTraffic {
        var lookups = 0
        var writes = 0
        /// Writes begun plus writes ended, since the entry was made. A lookup lives no longer
        /// than its key's entry, so its count is never compared with a later entry's.
        var changes: UInt64 = 0

        var isIdle: Bool { lookups == 0 && writes == 0 }
    }

    private struct State {
        var keys: [Key: KeyTraffic] = [:]
        /// Writes of every key (a removal of everything) under way.
        var writesOfEveryKey = 0
        /// Writes of every key begun plus ended, ever.
        var changesOfEveryKey: UInt64 = 0

        /// Marks the start of a write of `key` (`nil`: of every key).
        mutating func begin(_ key: Key?) -> Write {
            guard let key else {
                let followed = writesOfEveryKey > 0
                writesOfEveryKey += 1
                changesOfEveryKey &+= 1
                return Write(key: nil, changes: changesOfEveryKey, changesOfEveryKey: changesOfEveryKey, followedAnother: followed)
            }
            var traffic = keys[key, default: KeyTraffic()]
            let followed = traffic.writes > 0 || writesOfEveryKey > 0
            traffic.writes += 1
            traffic.changes &+= 1
            keys[key] = traffic
            return Write(key: key, changes: traffic.changes, changesOfEveryKey: changesOfEveryKey, followedAnother: followed)
        }

        /// Whether no write of the lookup's key, nor of every key, is under way or began or ended
        /// since the lookup began.
        func isUntouched(_ lookup: Lookup) -> Bool {
            guard let traffic = keys[lookup.key] else { return false }
            return traffic.writes == 0 && traffic.changes == lookup.changes
                && writesOfEveryKey == 0 && changesOfEveryKey == lookup.changesOfEveryKey
        }
    }

    private let state = Locked(State())

    /// A tracker with nothing under way.
    package init() {}

    /// Starts a read of `key`; end it with ``endLookup(_:)``.
    package func beginLookup(_ key: Key) -> Lookup {
        state.withLock { state in
            state.keys[key, default: KeyTraffic()].lookups += 1
            return Lookup(key: key, changes: state.keys[key]!.changes, changesOfEveryKey: state.changesOfEveryKey)
        }
    }

    /// Whether what `lookup` found may be stored: no write of its key (or of every key) is under
    /// way, and none began or ended since the lookup began.
    package func mayStore(_ lookup: Lookup) -> Bool {
        state.withLock { $0.isUntouched(lookup) }
    }

    /// Ends `lookup`.
    package func endLookup(_ lookup: Lookup) {
        state.withLock { state in
            guard var traffic = state.keys[lookup.key] else { return assertionFailure("endLookup without beginLookup") }
            traffic.lookups -= 1
            state.keys[lookup.key] = traffic.isIdle ? nil : traffic
        }
    }

    /// A write or removal under way, from ``beginWrite(_:)``.
    package struct Write: Sendable {
        /// Its key; `nil` for a write of every key.
        package let key: Key?
        /// Its key's changes (for a write of every key: those of every key) just after it began.
        let changes: UInt64
        /// The changes of every key just after it began.
        let changesOfEveryKey: UInt64
        /// Whether another write of its key, or of every key, was under way when it began.
        let followedAnother: Bool
    }

    /// Marks the start of a write or removal of `key` (`nil`: of every key); end it with
    /// ``endWrite(_:)``.
    package func beginWrite(_ key: Key?) -> Write {
        state.withLock { state in state.begin(key) }
    }

    /// Marks the start of a write of the lookup's key if ``mayStore(_:)`` says it may, in one
    /// step, so that no write can come between the question and the mark; `nil` if not. End a
    /// marked write with ``endWrite(_:)``.
    package func beginWrite(ifStillCurrent lookup: Lookup) -> Write? {
        state.withLock { state in state.isUntouched(lookup) ? state.begin(lookup.key) : nil }
    }

    /// Whether another write of the key of `write` (under way), or of every key, has overlapped
    /// it so far: began or ended since it began, or was under way when it began. The levels it
    /// writes may then hold the other write's value in one and its own in another. (For a write
    /// of every key: whether another write of every key overlapped it.)
    package func isOverlapped(_ write: Write) -> Bool {
        state.withLock { state in
            if write.followedAnother || state.changesOfEveryKey != write.changesOfEveryKey { return true }
            guard let key = write.key else { return false }
            return state.keys[key]?.changes != write.changes
        }
    }

    /// Marks the end of a write begun with ``beginWrite(_:)``.
    package func endWrite(_ write: Write) {
        state.withLock { state in
            guard let key = write.key else {
                state.writesOfEveryKey -= 1
                state.changesOfEveryKey &+= 1
                return
            }
            guard var traffic = state.keys[key] else { return assertionFailure("endWrite without beginWrite") }
            traffic.writes -= 1
            traffic.changes &+= 1
            state.keys[key] = traffic.isIdle ? nil : traffic
        }
    }

    /// How many keys have a read or a write under way (none once all ended).
    package var keysInFlight: Int { state.withLock { $0.keys.count } }
}
