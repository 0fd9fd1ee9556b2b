import Testing
import YYDispatch

@Suite struct WriteOverlapTrackerTests {
    @Test func aLookupWithNoWriteOfItsKeyMayStore() {
        let tracker = WriteOverlapTracker<String>()
        let lookup = tracker.beginLookup("a")
        tracker.beginWrite("b")
        tracker.endWrite("b")
        #expect(tracker.mayStore(lookup))
        tracker.endLookup(lookup)
        #expect(tracker.keysInFlight == 0)
    }

    @Test func aWriteThatBeganAndEndedDuringTheLookupForbidsStoring() {
        let tracker = WriteOverlapTracker<String>()
        let lookup = tracker.beginLookup("a")
        tracker.beginWrite("a")
        #expect(!tracker.mayStore(lookup))
        tracker.endWrite("a")
        #expect(!tracker.mayStore(lookup))
        tracker.endLookup(lookup)
        #expect(tracker.keysInFlight == 0)
    }

    /// The write may have stored its value after the lookup read the slower level: what the
    /// lookup found may be older.
    @Test func aWriteUnderWayWhenTheLookupBeganForbidsStoringEvenAfterItEnds() {
        let tracker = WriteOverlapTracker<String>()
        tracker.beginWrite("a")
        let lookup = tracker.beginLookup("a")
        #expect(!tracker.mayStore(lookup))
        tracker.endWrite("a")
        #expect(!tracker.mayStore(lookup))
        tracker.endLookup(lookup)
        #expect(tracker.keysInFlight == 0)
    }

    @Test func aLookupAfterEveryWriteEndedMayStore() {
        let tracker = WriteOverlapTracker<String>()
        tracker.beginWrite("a")
        tracker.beginWrite("a")
        tracker.endWrite("a")
        tracker.endWrite("a")
        let lookup = tracker.beginLookup("a")
        #expect(tracker.mayStore(lookup))
        tracker.endLookup(lookup)
        #expect(tracker.keysInFlight == 0)
    }

    @Test func aWriteOfEveryKeyForbidsStoringAnyKeyItOverlapped() {
        let tracker = WriteOverlapTracker<String>()
        let during = tracker.beginLookup("a")
        tracker.beginWrite(nil)
        let begunDuring = tracker.beginLookup("b")
        #expect(!tracker.mayStore(during))
        #expect(!tracker.mayStore(begunDuring))
        tracker.endWrite(nil)
        #expect(!tracker.mayStore(during))
        #expect(!tracker.mayStore(begunDuring))
        let after = tracker.beginLookup("c")
        #expect(tracker.mayStore(after))
        for lookup in [during, begunDuring, after] { tracker.endLookup(lookup) }
        #expect(tracker.keysInFlight == 0)
    }

    @Test func aConditionalWriteIsMarkedOnlyWhenNothingOverlappedTheLookup() {
        let tracker = WriteOverlapTracker<String>()
        let untouched = tracker.beginLookup("a")
        #expect(tracker.beginWrite(ifStillCurrent: untouched))
        // Marked: another lookup of the key now sees a write under way.
        let during = tracker.beginLookup("a")
        #expect(!tracker.mayStore(during))
        tracker.endWrite("a")
        #expect(!tracker.beginWrite(ifStillCurrent: during), "a write overlapped it")
        for lookup in [untouched, during] { tracker.endLookup(lookup) }
        #expect(tracker.keysInFlight == 0)
    }
}
