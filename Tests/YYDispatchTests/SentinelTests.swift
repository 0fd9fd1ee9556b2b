import Dispatch
import Testing
import YYDispatch

@Suite struct SentinelTests {
    @Test func increaseReturnsTheNewValue() {
        let sentinel = Sentinel()
        #expect(sentinel.value == 0)
        #expect(sentinel.increase() == 1)
        #expect(sentinel.increase() == 2)
        #expect(Sentinel(value: 41).increase() == 42)
    }

    @Test func concurrentIncreasesAreNotLost() {
        let sentinel = Sentinel()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { sentinel.increase() }
        }
        #expect(sentinel.value == 80_000)
    }
}
