import Testing
import YYCache

@Suite struct WriteOverlapTrackerTests {
    @Test func aLookupWithNoWriteOfItsKeyMayStore() {
        let tracker = WriteOverlapTracker<String>()
        let lookup = tracker.beginLookup("a")
        tracker.endWrite(tracker.beginWrite("b"))
        #expect(tracker.mayStore(lookup))
        tracker.endLookup(lookup)
        #expect(tracker.keysInFlight == 0)
    }

    @Test func aWriteThatBeganAndEndedDuringTheLookupForbidsStoring() {
        let tracker = WriteOverlapTracker<String>()
        let lookup = tracker.beginLookup("a")
        let write = tracker.beginWrite("a")
        #expect(!tracker.mayStore(lookup))
        tracker.endWrite(write)
        #expect(!tracker.mayStore(lookup))
        tracker.endLookup(lookup)
        #expect(tracker.keysInFlight == 0)
    }

    /// The write may have stored its value after the lookup read the slower level: what the
    /// lookup found may be older.
    @Test func aWriteUnderWayWhenTheLookupBeganForbidsStoringEvenAfterItEnds() {
        let tracker = WriteOverlapTracker<String>()
        let write = tracker.beginWrite("a")
        let lookup = tracker.beginLookup("a")
        #expect(!tracker.mayStore(lookup))
        tracker.endWrite(write)
        #expect(!tracker.mayStore(lookup))
        tracker.endLookup(lookup)
        #expect(tracker.keysInFlight == 0)
    }

    @Test func aLookupAfterEveryWriteEndedMayStore() {
        let tracker = WriteOverlapTracker<String>()
        let first = tracker.beginWrite("a"), second = tracker.beginWrite("a")
        tracker.endWrite(first)
        tracker.endWrite(second)
        let lookup = tracker.beginLookup("a")
        #expect(tracker.mayStore(lookup))
        tracker.endLookup(lookup)
        #expect(tracker.keysInFlight == 0)
    }

    @Test func aWriteOfEveryKeyForbidsStoringAnyKeyItOverlapped() {
        let tracker = WriteOverlapTracker<String>()
        let during = tracker.beginLookup("a")
        let everything = tracker.beginWrite(nil)
        let begunDuring = tracker.beginLookup("b")
        #expect(!tracker.mayStore(during))
        #expect(!tracker.mayStore(begunDuring))
        tracker.endWrite(everything)
        #expect(!tracker.mayStore(during))
        #expect(!tracker.mayStore(begunDuring))
        let after = tracker.beginLookup("c")
        #expect(tracker.mayStore(after))
        for lookup in [during, begunDuring, after] { tracker.endLookup(lookup) }
        #expect(tracker.keysInFlight == 0)
    }

    @Test func aConditionalWriteIsMarkedOnlyWhenNothingOverlappedTheLookup() throws {
        let tracker = WriteOverlapTracker<String>()
        let untouched = tracker.beginLookup("a")
        let write = try #require(tracker.beginWrite(ifStillCurrent: untouched))
        // Marked: another lookup of the key now sees a write under way.
        let during = tracker.beginLookup("a")
        #expect(!tracker.mayStore(during))
        tracker.endWrite(write)
        #expect(tracker.beginWrite(ifStillCurrent: during) == nil, "a write overlapped it")
        for lookup in [untouched, during] { tracker.endLookup(lookup) }
        #expect(tracker.keysInFlight == 0)
    }

    @Test func aWriteAloneIsNotOverlapped() {
        let tracker = WriteOverlapTracker<String>()
        let write = tracker.beginWrite("a")
        tracker.endWrite(tracker.beginWrite("b"))
        let lookup = tracker.beginLookup("a")
        tracker.endLookup(lookup)
        #expect(!tracker.isOverlapped(write))
        tracker.endWrite(write)
        #expect(tracker.keysInFlight == 0)
    }

    /// Either side of two writes of one key that ran at the same time may have written one level
    /// last and the other level first.
    @Test(arguments: [false, true])
    func writesOfOneKeyThatOverlapKnowIt(secondEndsFirst: Bool) {
        let tracker = WriteOverlapTracker<String>()
        let first = tracker.beginWrite("a")
        let second = tracker.beginWrite("a")
        #expect(tracker.isOverlapped(first))
        #expect(tracker.isOverlapped(second), "it began while the first was under way")
        if secondEndsFirst {
            tracker.endWrite(second)
            #expect(tracker.isOverlapped(first))
            tracker.endWrite(first)
        } else {
            tracker.endWrite(first)
            #expect(tracker.isOverlapped(second))
            tracker.endWrite(second)
        }
        #expect(tracker.keysInFlight == 0)
    }

    @Test func aWriteOfEveryKeyOverlapsTheWritesOfEachKey() {
        let tracker = WriteOverlapTracker<String>()
        let write = tracker.beginWrite("a")
        tracker.endWrite(tracker.beginWrite(nil))
        #expect(tracker.isOverlapped(write))
        tracker.endWrite(write)
        let everything = tracker.beginWrite(nil)
        let during = tracker.beginWrite("b")
        #expect(tracker.isOverlapped(during))
        #expect(!tracker.isOverlapped(everything), "a write of every key minds only its own kind")
        tracker.endWrite(during)
        tracker.endWrite(everything)
        #expect(tracker.keysInFlight == 0)
    }
}
