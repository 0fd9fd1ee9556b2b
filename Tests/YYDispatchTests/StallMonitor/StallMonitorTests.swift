import Dispatch
import Foundation
import MetricsTestKit
import TestSupport
import TestTraits
import Testing

@testable import YYDispatch

/// The monitor against a clock moved by hand, then against real threads with wide margins.
@Suite(.hangLimit) struct StallMonitorTests {
    private func configuration(
        interval: Duration = .milliseconds(100), threshold: Duration = .milliseconds(250),
        metrics: TestMetrics? = nil
    ) -> StallMonitor.Configuration {
        var configuration = StallMonitor.Configuration()
        configuration.metricsFactory = metrics
        configuration.interval = interval
        configuration.threshold = threshold
        configuration.recordsThreads = false
        return configuration
    }

    /// Runs a monitor of `probe` on a manual clock; `script` moves the clock by wake-ups.
    private func withManualMonitor(
        _ probe: ManualProbe, metrics: TestMetrics? = nil,
        _ script: (_ clock: ManualStallClock, _ tick: (Duration) -> Void) -> Void
    )
        -> (events: [StallMonitor.Event], cpuTime: Duration)
    {
        let clock = ManualStallClock()
        let events = EventLog<StallMonitor.Event>()
        let monitor = StallMonitor(probes: [probe.probe], configuration: configuration(metrics: metrics), clock: clock) { events.append($0) }
        monitor.start()
        var sleeps = 1
        clock.waitForSleep(count: sleeps)
        script(clock) { step in
            clock.advance(by: step)
            sleeps += 1
            clock.waitForSleep(count: sleeps)
        }
        let cpuTime = monitor.ownCPUTime
        monitor.stop()
        clock.advance(by: .seconds(1))  // lets the thread see that it stopped
        return (events.all, cpuTime)
    }

    @Test func aPingUnansweredPastTheThresholdMakesOneBeganAndOneEndedWithTheRightDuration() {
        let probe = ManualProbe()
        let (events, cpuTime) = withManualMonitor(probe) { clock, tick in
            for _ in 0..<10 { tick(.milliseconds(100)) }  // t = 1000 ms, ping from t = 0 unanswered
            clock.advance(by: .milliseconds(50))  // t = 1050 ms, between wake-ups
            probe.answer()
            tick(.milliseconds(50))  // the wake-up at 1100 ms sees the answer
            for _ in 0..<5 {  // later pings are answered at once
                probe.answer()
                tick(.milliseconds(100))
            }
        }
        #expect(
            events == [
                .stallBegan(probe: "manual", waited: .milliseconds(300), threads: []),
                .stallContinues(probe: "manual", duration: .milliseconds(800)),
                .stallEnded(probe: "manual", duration: .milliseconds(1050)),
            ])
        #expect(cpuTime > .zero, "the monitor measures its own thread's CPU time")
    }

    @Test func aZeroIntervalSleepsAMillisecondRatherThanSpinning() {
        let clock = ManualStallClock()
        var configuration = StallMonitor.Configuration()
        configuration.interval = .zero
        let monitor = StallMonitor(probes: [], configuration: configuration, clock: clock)
        monitor.start()
        #expect(clock.waitForSleep(count: 1))
        #expect(clock.lastDeadline == .milliseconds(1))
        monitor.stop()
        clock.advance(by: .seconds(1))  // lets the thread see that it stopped
    }

    @Test func answersUnderTheThresholdReportNothing() {
        let probe = ManualProbe()
        let (events, _) = withManualMonitor(probe) { clock, tick in
            for _ in 0..<20 {
                tick(.milliseconds(100))
                tick(.milliseconds(100))
                clock.advance(by: .milliseconds(40))  // answered 240 ms after the ping
                probe.answer()
                tick(.milliseconds(60))
            }
        }
        #expect(events.isEmpty)
        #expect(probe.pings >= 20)
    }

    @Test func aPausedMonitorReportsThatItOversleptAndBlamesNoProbe() {
        let probe = ManualProbe()
        let (events, _) = withManualMonitor(probe) { clock, tick in
            tick(.seconds(2))  // asked to wake at 100 ms, woke at 2 s
            probe.answer()
            for _ in 0..<5 { tick(.milliseconds(100)); probe.answer() }
        }
        #expect(events == [.monitorOverslept(by: .milliseconds(1900))])
    }

    @Test func answeredPingsRecordTheirLatencyAndAStallCountsOnceInTheMetrics() throws {
        let metrics = TestMetrics()
        let probe = ManualProbe()
        let (events, _) = withManualMonitor(probe, metrics: metrics) { clock, tick in
            clock.advance(by: .milliseconds(40))  // the ping of t = 0 answered at 40 ms
            probe.answer()
            tick(.milliseconds(60))  // t = 100 ms: seen; the next ping goes out
            for _ in 0..<3 { tick(.milliseconds(100)) }  // t = 400 ms: 300 ms unanswered, a stall
            clock.advance(by: .milliseconds(50))  // answered at 450 ms
            probe.answer()
            tick(.milliseconds(50))  // t = 500 ms: the stall ends
            probe.answer()  // the ping of t = 500 ms answered at once
            tick(.milliseconds(100))
        }
        #expect(
            events == [
                .stallBegan(probe: "manual", waited: .milliseconds(300), threads: []),
                .stallEnded(probe: "manual", duration: .milliseconds(350)),
            ])
        let latencies = try metrics.expectTimer("yykit_stall_monitor_ping_latency", [("probe", "manual")])
        #expect(latencies.values == [40_000_000, 350_000_000, 0])
        #expect(try metrics.expectCounter("yykit_stall_monitor_stalls", [("probe", "manual")]).totalValue == 1)
        #expect(try metrics.expectCounter("yykit_stall_monitor_oversleeps").totalValue == 0)
    }

    @Test func aMonitorThatOversleptCountsItInTheMetricsAndNoStall() throws {
        let metrics = TestMetrics()
        let probe = ManualProbe()
        _ = withManualMonitor(probe, metrics: metrics) { _, tick in
            tick(.seconds(2))  // asked to wake at 100 ms, woke at 2 s
            probe.answer()
            for _ in 0..<3 { tick(.milliseconds(100)); probe.answer() }
        }
        #expect(try metrics.expectCounter("yykit_stall_monitor_oversleeps").totalValue == 1)
        #expect(try metrics.expectCounter("yykit_stall_monitor_stalls", [("probe", "manual")]).totalValue == 0)
    }

    @Test func theMonitorsThreadCarriesItsNameForDebuggersAndThreadSnapshots() async {
        // A probe's ping is called on the monitor's own thread.
        let (names, record) = AsyncStream.makeStream(of: String.self)
        let probe = StallMonitor.Probe(name: "named") { answer in
            record.yield(currentThreadName())
            answer()
        }
        let monitor = StallMonitor(probes: [probe], configuration: configuration(interval: .milliseconds(5)))
        monitor.start()
        var iterator = names.makeAsyncIterator()
        let name = await iterator.next()
        monitor.stop()
        #expect(name == StallMonitor.threadName)
        #expect(StallMonitor.threadName.utf8.count <= ThreadName.maximumLength)
    }

    @Test func threadStatesAreReadFromProcWhateverTheThreadIsCalled() {
        let parsed = ThreadState.parse(stat: "4242 (pool (2) x) D 1 2 3 4")
        #expect(parsed == ThreadState(id: 4242, name: "pool (2) x", activity: .waitingOnDisk))
        #expect(ThreadState.parse(stat: "garbage") == nil)
        #if os(Linux)
        let threads = ThreadState.snapshot()
        #expect(threads.contains { $0.activity == .running }, "the thread reading /proc is running")
        #endif
    }

    // MARK: Real threads, real clock, wide margins

    /// Events until `isDone` says so, from a monitor of `probes` on the real clock.
    private func watch(
        _ probes: [StallMonitor.Probe], threshold: Duration, whileRunning stimulus: @Sendable () -> Void,
        until isDone: @escaping @Sendable ([StallMonitor.Event]) -> Bool,
        onEvent: @escaping @Sendable (StallMonitor.Event) -> Void = { _ in }
    ) async -> [StallMonitor.Event] {
        let (stream, continuation) = AsyncStream.makeStream(of: StallMonitor.Event.self)
        let monitor = StallMonitor(probes: probes, configuration: configuration(interval: .milliseconds(20), threshold: threshold)) { event in
            onEvent(event)
            continuation.yield(event)
        }
        monitor.start()
        stimulus()
        var events: [StallMonitor.Event] = []
        for await event in stream {
            events.append(event)
            if isDone(events) { break }
        }
        monitor.stop()
        return events
    }

    private static func ended(_ events: [StallMonitor.Event], probe name: String) -> [Duration] {
        events.compactMap { if case .stallEnded(name, let duration) = $0 { duration } else { nil } }
    }

    private static func began(_ events: [StallMonitor.Event], probe name: String) -> Int {
        events.filter { if case .stallBegan(name, _, _) = $0 { true } else { false } }.count
    }

    /// A semaphore the monitor signals when it reports a stall of `probe`: the stimulus holds
    /// its queue or actor until then, so the stall lasts however long a loaded machine takes to
    /// notice it, and no wall-clock window is assumed.
    private static func releaseOnStall(of probe: String) -> (DispatchSemaphore, @Sendable (StallMonitor.Event) -> Void) {
        let release = DispatchSemaphore(value: 0)
        return (
            release,
            { event in
                if case .stallBegan(probe, _, _) = event { release.signal() }
            }
        )
    }

    @Test func aSerialQueueHeldPastTheThresholdIsOneStallThatLastsAtLeastTheThreshold() async {
        let queue = DispatchQueue(label: "blocked")
        let (release, onEvent) = Self.releaseOnStall(of: "blocked")
        let events = await watch(
            [.queue(queue, name: "blocked")], threshold: .milliseconds(100),
            whileRunning: {
                // The stimulus: a work item that holds the queue until the stall is reported.
                queue.async { _ = release.wait(timeout: .now() + .seconds(30)) }
            }, until: { !Self.ended($0, probe: "blocked").isEmpty }, onEvent: onEvent)
        let durations = Self.ended(events, probe: "blocked")
        #expect(Self.began(events, probe: "blocked") == 1)
        #expect(durations.count == 1)
        #expect(durations.allSatisfy { $0 >= .milliseconds(100) }, "\(durations)")
    }

    @Test func anActorBusyInABlockingCallStalls() async {
        actor Busy {
            func block(until release: DispatchSemaphore) { _ = release.wait(timeout: .now() + .seconds(30)) }
        }
        let busy = Busy()
        let (release, onEvent) = Self.releaseOnStall(of: "busy actor")
        let events = await watch(
            [.actor(busy, name: "busy actor")], threshold: .milliseconds(100),
            whileRunning: {
                Task { await busy.block(until: release) }
            }, until: { !Self.ended($0, probe: "busy actor").isEmpty }, onEvent: onEvent)
        #expect(Self.began(events, probe: "busy actor") == 1)
        #expect(Self.ended(events, probe: "busy actor").allSatisfy { $0 >= .milliseconds(100) })
    }

    @Test func aConcurrencyPoolSaturatedByCPUBoundTasksIsDetected() async {
        let detected = Locked(false)
        let probe = StallMonitor.Probe.concurrencyPool()
        let width = ProcessInfo.processInfo.activeProcessorCount
        let events = await watch(
            [probe], threshold: .milliseconds(100),
            whileRunning: {
                // Busy tasks that never suspend, one per pool thread (and one more), until the
                // monitor says it saw the stall (or 10 s pass).
                for _ in 0...width {
                    Task.detached {
                        let end = ContinuousClock.now + .seconds(10)
                        while !detected.withLock({ $0 }), ContinuousClock.now < end {}
                    }
                }
            }, until: { !Self.ended($0, probe: probe.name).isEmpty },
            onEvent: { event in
                if case .stallBegan = event { detected.withLock { $0 = true } }
            })
        #expect(Self.began(events, probe: probe.name) == 1)
        #expect(detected.withLock { $0 })
    }
}
