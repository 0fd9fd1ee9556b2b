public import CoreMetrics
import Foundation
public import Logging
import Metrics

/// Watches queues, the concurrency pool, actors or anything else that can answer a ping, and
/// reports when one stops answering (the semaphore ping of KSCrash's deadlock monitor, grown up).
///
/// A thread of its own (not dispatch, not the cooperative pool, which are what it watches)
/// wakes every ``Configuration/interval``. Each probe has at most one ping outstanding; a ping
/// unanswered for ``Configuration/threshold`` begins a stall, reported once with what every
/// thread of the process was doing; reminders follow at doubling gaps while it lasts; the answer
/// ends it, with its duration. When the monitor's own thread wakes much later than it asked
/// (the process was paused, the CPU throttled), it reports that, and the time it lost is not
/// counted against the probes. Given a swift-metrics factory, it also records every answered
/// ping's latency and counts stalls and oversleeps (see ``Configuration/metricsFactory``).
///
/// ```swift
/// let monitor = StallMonitor(probes: [.queue(.main, name: "main"), .concurrencyPool()]) { event in
///     print(event)
/// }
/// monitor.start()
/// ```
public final class StallMonitor: Sendable {
    /// How often to ping and how long an answer may take.
    public struct Configuration: Sendable {
        /// Time between the monitor's wake-ups (default 100 ms: 10 Hz; at least 1 ms, so that
        /// zero or a negative interval cannot make the thread spin).
        public var interval: Duration = .milliseconds(100)
        /// How long a ping may go unanswered before it is a stall (default 250 ms).
        public var threshold: Duration = .milliseconds(250)
        /// How much later than asked the monitor may wake before it reports that it overslept
        /// (default: the threshold).
        public var oversleepTolerance: Duration?
        /// Whether a stall's beginning records every thread's state (default true).
        public var recordsThreads = true
        /// Where the monitor records its metrics, or `nil` for nowhere (the default, so that a
        /// monitor whose metrics nobody reads does no work for them; with a factory, its thread
        /// records at every answered ping, outside its locks). Pass
        /// `MetricsSystem.factory` for the backend the process bootstrapped, before the monitor
        /// is made. Recorded, with the probe's name as dimension `probe`:
        /// - `yykit_stall_monitor_ping_latency` (timer): how long each answered ping took, as the
        ///   monitor saw it at its next wake-up;
        /// - `yykit_stall_monitor_stalls` (counter): stalls begun;
        /// - `yykit_stall_monitor_oversleeps` (counter, no dimension): wake-ups late enough to be
        ///   reported as ``Event/monitorOverslept(by:)``.
        public var metricsFactory: (any MetricsFactory)?

        /// The defaults.
        public init() {}
    }

    /// What the monitor reports.
    public enum Event: Sendable, Equatable, CustomStringConvertible {
        /// `probe` has not answered for `waited`; `threads` is what the process's threads were
        /// doing then.
        case stallBegan(probe: String, waited: Duration, threads: [ThreadState])
        /// `probe` still has not answered after `duration` (at doubling gaps).
        case stallContinues(probe: String, duration: Duration)
        /// `probe` answered after `duration` in all.
        case stallEnded(probe: String, duration: Duration)
        /// The monitor's thread woke `by` later than it asked: the process was paused or
        /// starved, so pings outstanding then start their wait afresh.
        case monitorOverslept(by: Duration)

        public var description: String {
            switch self {
            case .stallBegan(let probe, let waited, let threads):
                "stall began: \(probe) has not answered for \(waited); threads: \(threads.map(\.description).joined(separator: ", "))"
            case .stallContinues(let probe, let duration): "stall continues: \(probe) silent for \(duration)"
            case .stallEnded(let probe, let duration): "stall ended: \(probe) answered after \(duration)"
            case .monitorOverslept(let late): "the stall monitor woke \(late) late (process paused or starved)"
            }
        }
    }

    /// The probes, in the order given.
    public let probes: [Probe]
    /// The timing.
    public let configuration: Configuration

    private let clock: any StallMonitorClock
    private let logger: Logger
    private let onEvent: @Sendable (Event) -> Void
    private let states: [Locked<ProbeState>]
    private let metrics: Metrics?
    private let control = Locked(Control())

    private struct Control {
        var isRunning = false
        var generation = 0
        var cpuTime: Duration = .zero
    }

    /// The handles of ``Configuration/metricsFactory``, made once.
    private struct Metrics: Sendable {
        /// By probe, in the order of ``probes``.
        let latencies: [CoreMetrics.Timer]
        let stalls: [Counter]
        let oversleeps: Counter

        init(probes: [Probe], factory: any MetricsFactory) {
            latencies = probes.map {
                CoreMetrics.Timer(label: "yykit_stall_monitor_ping_latency", dimensions: [("probe", $0.name)], factory: factory)
            }
            stalls = probes.map { Counter(label: "yykit_stall_monitor_stalls", dimensions: [("probe", $0.name)], factory: factory) }
            oversleeps = Counter(label: "yykit_stall_monitor_oversleeps", factory: factory)
        }
    }

    /// Per probe; written by the monitor's thread and, for `answeredAt`, by whoever answers.
    private struct ProbeState {
        var nextPingID = 0
        var outstanding: (id: Int, sentAt: Duration)?
        var answeredAt: Duration?
        var stallStartedAt: Duration?
        var nextReminder: Duration = .zero
        var reminderGap: Duration = .zero
    }

    /// A monitor of `probes`; call ``start()``.
    /// - Parameters:
    ///   - probes: what to ping; each has at most one ping outstanding.
    ///   - configuration: the ping rate, the stall threshold and the reminder back-off.
    ///   - clock: the time it reads and sleeps by (the real one by default).
    ///   - logger: where events are logged too (warnings for stalls and oversleeping).
    ///   - onEvent: called on the monitor's thread; keep it short.
    public init(
        probes: [Probe], configuration: Configuration = Configuration(), clock: any StallMonitorClock = ContinuousStallMonitorClock(),
        logger: Logger = Logger(label: "yykit.stall-monitor"), onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        self.probes = probes
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.onEvent = onEvent
        self.states = probes.map { _ in Locked(ProbeState()) }
        self.metrics = configuration.metricsFactory.map { Metrics(probes: probes, factory: $0) }
    }

    /// Whether the monitor's thread runs.
    public var isRunning: Bool { control.withLock { $0.isRunning } }

    /// CPU time the monitor's own thread has used since it was last started, up to its last
    /// wake-up: what it costs, without the work its pings cause on the threads they reach.
    public var ownCPUTime: Duration { control.withLock { $0.cpuTime } }

    /// Starts the monitor's thread; does nothing if it runs. The thread keeps the monitor alive
    /// until ``stop()``.
    public func start() {
        let generation = control.withLock { control -> Int? in
            guard !control.isRunning else { return nil }
            control.isRunning = true
            control.generation += 1
            return control.generation
        }
        guard let generation else { return }
        let thread = Thread { [self] in
            ThreadName.setCurrent(Self.threadName)
            run(generation: generation)
        }
        thread.start()
    }

    /// The monitor's thread's name, as `/proc/<pid>/task/<tid>/comm`, debuggers and
    /// ``ThreadState`` show it.
    static let threadName = "yykit.stallmon"

    /// Stops the monitor; its thread ends when it next wakes. No event is reported after this
    /// returns, except by a wake-up already under way.
    public func stop() {
        control.withLock { $0.isRunning = false }
    }

    private func shouldRun(_ generation: Int) -> Bool {
        let cpuTime = Self.threadCPUTime()
        return control.withLock { control in
            control.cpuTime = cpuTime
            return control.isRunning && control.generation == generation
        }
    }

    /// The calling thread's CPU time: a system call on Linux (the vDSO serves only the wall
    /// clocks), which costs nothing that matters at 10 Hz.
    private static func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    private func run(generation: Int) {
        var expectedWake = clock.now
        while shouldRun(generation) {
            let now = clock.now
            let late = now - expectedWake
            let overslept = late > (configuration.oversleepTolerance ?? configuration.threshold)
            if overslept {
                metrics?.oversleeps.increment()
                report(.monitorOverslept(by: late))
            }
            for index in probes.indices { check(index, now: now, afterOversleeping: overslept) }
            expectedWake = now + max(configuration.interval, .milliseconds(1))
            clock.sleep(until: expectedWake)
        }
    }

    /// One probe at one wake-up: close an answered ping, send a new one, or judge the silence.
    private func check(_ index: Int, now: Duration, afterOversleeping overslept: Bool) {
        let threshold = configuration.threshold
        var events: [Event] = []
        var latency: Duration?
        var stallBegan = false
        let pingID = states[index].withLock { state -> Int? in
            if let outstanding = state.outstanding, let answeredAt = state.answeredAt {
                let answeredAfter = answeredAt - outstanding.sentAt
                latency = answeredAfter
                if state.stallStartedAt != nil {
                    events.append(.stallEnded(probe: probes[index].name, duration: answeredAfter))
                }
                state.outstanding = nil
                state.answeredAt = nil
                state.stallStartedAt = nil
            }
            guard let outstanding = state.outstanding else {
                state.nextPingID += 1
                state.outstanding = (state.nextPingID, now)
                return state.nextPingID
            }
            if overslept, state.stallStartedAt == nil {
                // The silence overlapped the monitor's own absence: it proves nothing yet.
                state.outstanding = (outstanding.id, now)
                return nil
            }
            let waited = now - outstanding.sentAt
            if state.stallStartedAt == nil {
                guard waited >= threshold else { return nil }
                state.stallStartedAt = now
                state.reminderGap = threshold * 2
                state.nextReminder = now + state.reminderGap
                stallBegan = true
                events.append(.stallBegan(probe: probes[index].name, waited: waited, threads: []))
            } else if now >= state.nextReminder {
                state.reminderGap *= 2
                state.nextReminder = now + state.reminderGap
                events.append(.stallContinues(probe: probes[index].name, duration: waited))
            }
            return nil
        }
        if let metrics {
            if let latency { metrics.latencies[index].record(duration: latency) }
            if stallBegan { metrics.stalls[index].increment() }
        }
        for event in events {
            if case .stallBegan(let probe, let waited, _) = event, configuration.recordsThreads {
                report(.stallBegan(probe: probe, waited: waited, threads: ThreadState.snapshot()))
            } else {
                report(event)
            }
        }
        if let pingID { ping(index, id: pingID) }
    }

    private func ping(_ index: Int, id: Int) {
        let state = states[index]
        let clock = self.clock
        probes[index].ping {
            let now = clock.now
            state.withLock { state in
                if state.outstanding?.id == id, state.answeredAt == nil { state.answeredAt = now }
            }
        }
    }

    private func report(_ event: Event) {
        switch event {
        case .stallEnded: logger.info("\(event.description)")
        default: logger.warning("\(event.description)")
        }
        onEvent(event)
    }
}
