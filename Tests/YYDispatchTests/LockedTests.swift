import Dispatch
import TestSupport
import Testing
import YYDispatch

final class DeinitCounter: @unchecked Sendable {
    let onDeinit: () -> Void
    init(_ onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

@Suite struct LockedTests {
    @Test func serialisesConcurrentMutations() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func rethrowsTheTypedErrorAndKeepsEarlierMutations() {
        struct Stop: Error, Equatable {}
        let list = Locked([Int]())
        #expect(throws: Stop()) {
            try list.withLock { (items: inout [Int]) throws(Stop) in
                items.append(1)
                throw Stop()
            }
        }
        #expect(list.withLock { $0 } == [1])
    }

    @Test func releasesItsStateExactlyOnce() {
        let deinits = Locked(0)
        do {
            let box = Locked(DeinitCounter { deinits.withLock { $0 += 1 } })
            _ = box.withLock { _ in 0 }
        }
        #expect(deinits.withLock { $0 } == 1)
    }

    @Test func exchangeHandsBackTheOldValueToBeReleasedAfterTheLock() async {
        struct State { var handler: DeinitCounter? }
        let state = Locked(State())
        let first = DeinitCounter {}
        state.withLock { $0.handler = first }
        #expect(state.exchange(\.handler, with: nil) === first)
        // A deinit that takes the same lock: released under it, the thread would deadlock.
        let released = Locked(false)
        state.withLock {
            $0.handler = DeinitCounter { [state] in
                _ = state.withLock { $0.handler }
                released.withLock { $0 = true }
            }
        }
        let finished = await returnsInTime { state.exchange(\.handler, with: nil) }
        #expect(finished, "releasing the replaced value deadlocked")
        #expect(released.withLock { $0 })
    }
}
