import Testing
@testable import YYWebImage

@Suite struct OriginalWriteTrackerTests {
    @Test func aLookupWithNoWriteOfItsKeyMayStore() {
        let tracker = OriginalWriteTracker()
        let lookup = tracker.beginLookup("a")
        tracker.beginWrite("b")
        tracker.endWrite("b")
        #expect(tracker.mayStore(lookup))
        tracker.endLookup(lookup)
        #expect(tracker.keysInFlight == 0)
    }

    @Test func aWriteThatBeganAndEndedDuringTheLookupForbidsStoring() {
        let tracker = OriginalWriteTracker()
        let lookup = tracker.beginLookup("a")
        tracker.beginWrite("a")
        #expect(!tracker.mayStore(lookup))
        tracker.endWrite("a")
        #expect(!tracker.mayStore(lookup))
        tracker.endLookup(lookup)
        #expect(tracker.keysInFlight == 0)
    }

    /// The write may have stored its original after the lookup read the disk: what the lookup
    /// finds in the tier may be older.
    @Test func aWriteUnderWayWhenTheLookupBeganForbidsStoringEvenAfterItEnds() {
        let tracker = OriginalWriteTracker()
        tracker.beginWrite("a")
        let lookup = tracker.beginLookup("a")
        #expect(!tracker.mayStore(lookup))
        tracker.endWrite("a")
        #expect(!tracker.mayStore(lookup))
        tracker.endLookup(lookup)
        #expect(tracker.keysInFlight == 0)
    }

    @Test func aLookupAfterEveryWriteEndedMayStore() {
        let tracker = OriginalWriteTracker()
        tracker.beginWrite("a")
        tracker.beginWrite("a")
        tracker.endWrite("a")
        tracker.endWrite("a")
        let lookup = tracker.beginLookup("a")
        #expect(tracker.mayStore(lookup))
        tracker.endLookup(lookup)
        #expect(tracker.keysInFlight == 0)
    }
}
