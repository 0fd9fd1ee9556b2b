import Dispatch
import Synchronization
import TestSupport
import Testing
import YYDispatch

final class TimerTarget: Sendable {
    let ticks = Atomic<Int>(0)
}

@Suite struct WeakTimerTests {
    @Test func firesRepeatedly() async throws {
        let target = TimerTarget()
        let timer = WeakTimer(interval: .milliseconds(5), target: target) { $0.ticks.wrappingAdd(1, ordering: .relaxed) }
        await waitUntil { target.ticks.load(ordering: .relaxed) >= 3 }
        #expect(target.ticks.load(ordering: .relaxed) >= 3)
        #expect(timer.isValid)
        #expect(timer.repeats)
        #expect(timer.interval == .milliseconds(5))
        timer.invalidate()
        #expect(!timer.isValid)
    }

    @Test func oneShotTimerFiresOnce() async throws {
        let target = TimerTarget()
        let timer = WeakTimer(interval: .milliseconds(5), repeats: false, target: target) {
            $0.ticks.wrappingAdd(1, ordering: .relaxed)
        }
        await waitUntil { !timer.isValid }
        // A repeating timer of the same interval, started now, ticking 5 times: by then a one-shot
        // timer that fired again would have done so.
        let control = TimerTarget()
        let repeating = WeakTimer(interval: .milliseconds(5), target: control) { $0.ticks.wrappingAdd(1, ordering: .relaxed) }
        await waitUntil { control.ticks.load(ordering: .relaxed) >= 5 }
        repeating.invalidate()
        #expect(control.ticks.load(ordering: .relaxed) >= 5)
        #expect(target.ticks.load(ordering: .relaxed) == 1)
    }

    @Test func doesNotKeepItsTargetAliveAndStopsWhenItIsGone() async throws {
        weak var weakTarget: TimerTarget?
        let timer: WeakTimer
        do {
            let target = TimerTarget()
            weakTarget = target
            timer = WeakTimer(interval: .milliseconds(5), target: target) { $0.ticks.wrappingAdd(1, ordering: .relaxed) }
        }
        #expect(weakTarget == nil)
        await waitUntil { !timer.isValid }
        #expect(!timer.isValid)
    }

    @Test func fireRunsTheActionNow() {
        let target = TimerTarget()
        let timer = WeakTimer(interval: .seconds(3600), target: target) { $0.ticks.wrappingAdd(1, ordering: .relaxed) }
        timer.fire()
        #expect(target.ticks.load(ordering: .relaxed) == 1)
        #expect(timer.isValid)
        timer.invalidate()
        timer.fire()
        #expect(target.ticks.load(ordering: .relaxed) == 1)
    }
}
