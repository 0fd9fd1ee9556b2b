import TestSupport
import TestTraits
import Testing
import YYDispatch

@testable import YYWebImage

/// The watch calls each action once its deadline has passed, in deadline order, never after
/// removal, wakes early for an earlier deadline, and keeps removed entries bounded.
@Suite(.hangLimit) struct DeadlineWatchTests {
    /// The names of the actions that ran, in order, with the time each ran.
    private final class Fired: Sendable {
        let entries = Locked([(name: String, at: ContinuousClock.Instant)]())
        func action(_ name: String) -> @Sendable () -> Void {
            { self.entries.withLock { $0.append((name, .now)) } }
        }
        var names: [String] { entries.withLock { $0.map(\.name) } }
        func time(of name: String) -> ContinuousClock.Instant? { entries.withLock { $0.first { $0.name == name }?.at } }
    }

    @Test func anActionRunsOnceItsDeadlineHasPassed() async {
        let watch = DeadlineWatch()
        let fired = Fired()
        let deadline = ContinuousClock.now + .milliseconds(30)
        _ = watch.add(deadline, action: fired.action("a"))
        await waitUntil { fired.names == ["a"] }
        #expect(fired.names == ["a"])
        #expect(fired.time(of: "a").map { $0 >= deadline } == true)
    }

    @Test func actionsRunInDeadlineOrderWhateverOrderTheyCameIn() async {
        let watch = DeadlineWatch()
        let fired = Fired()
        let now = ContinuousClock.now
        for (name, milliseconds) in [("c", 60), ("a", 20), ("b", 40)] {
            _ = watch.add(now + .milliseconds(milliseconds), action: fired.action(name))
        }
        await waitUntil { fired.names.count == 3 }
        #expect(fired.names == ["a", "b", "c"])
    }

    @Test func aRemovedActionNeverRuns() async {
        let watch = DeadlineWatch()
        let fired = Fired()
        let now = ContinuousClock.now
        let removed = watch.add(now + .milliseconds(20), action: fired.action("removed"))
        watch.remove(removed)
        _ = watch.add(now + .milliseconds(60), action: fired.action("kept"))
        await waitUntil { fired.names.contains("kept") }
        // "kept" ran after the removed deadline had passed: "removed" had its chance and did not run.
        #expect(fired.names == ["kept"])
    }

    @Test func anEarlierDeadlineWakesTheWatchEarly() async {
        let watch = DeadlineWatch()
        let fired = Fired()
        let late = watch.add(.now + .seconds(600), action: fired.action("late"))
        let start = ContinuousClock.now
        _ = watch.add(start + .milliseconds(20), action: fired.action("early"))
        await waitUntil { fired.names == ["early"] }
        #expect(fired.names == ["early"])
        watch.remove(late)
    }

    @Test func removedEntriesDoNotPileUp() {
        let watch = DeadlineWatch()
        let start = ContinuousClock.now + .seconds(600)
        let tokens = (0..<1000).map { watch.add(start + .milliseconds($0), action: {}) }
        #expect(watch.storedCount == 1000)
        for token in tokens.dropLast(10) { watch.remove(token) }
        // Rebuilt whenever removed entries outnumber the live ones, above 64 entries.
        #expect(watch.storedCount <= 64)
        for token in tokens.suffix(10) { watch.remove(token) }
    }
}
