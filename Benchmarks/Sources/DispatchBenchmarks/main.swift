// YYDispatch's benchmarks, release build:
//   (a) StallMonitor's own CPU cost at 10 Hz with three probes (a serial queue, the concurrency
//       pool, an actor): the process's CPU time over a run with the monitor, minus the same run
//       without it, as a share of one core;
//   (b) Transaction.commit against a plain DispatchQueue.async per call: N calls from one
//       thread, then wait until the queue ran what they asked for; best of the rounds.
//
//   DispatchBenchmarks [--monitor-seconds N] [--rounds N]
//   DispatchBenchmarks --profile-monitor SECONDS [--no-probes]
//       # only a monitor at 10 Hz (three probes, or none) for SECONDS, for a profiler (`perf record`)
import BenchmarkSupport
import Dispatch
import Foundation
import YYDispatch

let option = commandLineOption
let monitorSeconds = option("--monitor-seconds").flatMap(Double.init) ?? 20
let rounds = option("--rounds").flatMap(Int.init) ?? 5

/// CPU time (user + system) of the whole process so far, in seconds.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)  // Glibc imports the constant as an enum case
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// The process's CPU seconds over `seconds` of wall time spent waiting, with `setUp` before.
func idleCPU(for seconds: Double, setUp: () -> (() -> Void)) -> Double {
    let tearDown = setUp()
    let start = processCPUSeconds()
    _ = DispatchSemaphore(value: 0).wait(timeout: .now() + seconds)
    let used = processCPUSeconds() - start
    tearDown()
    return used
}

actor Probed {}
let probed = Probed()
let probedQueue = DispatchQueue(label: "probed")

if let seconds = option("--profile-monitor").flatMap(Double.init) {
    let probes: [StallMonitor.Probe] =
        CommandLine.arguments.contains("--no-probes")
        ? [] : [.queue(probedQueue), .concurrencyPool(), .actor(probed, name: "actor")]
    let monitor = StallMonitor(probes: probes)
    monitor.start()
    _ = DispatchSemaphore(value: 0).wait(timeout: .now() + seconds)
    let used = monitor.ownCPUTime
    monitor.stop()
    print("monitor thread: \(used) of CPU over \(seconds) s")
    exit(0)
}

// (a) Monitor on and off, in turns, the best (least) of each.
var withMonitor = Double.infinity, without = Double.infinity
var pings = 0
var monitorThread = Duration.zero
for _ in 0..<2 {
    without = min(without, idleCPU(for: monitorSeconds / 2) { {} })
    withMonitor = min(
        withMonitor,
        idleCPU(for: monitorSeconds / 2) {
            var configuration = StallMonitor.Configuration()
            configuration.interval = .milliseconds(100)
            let answered = Locked(0)
            let count: StallMonitor.Probe = .init(name: "counted queue") { answer in
                probedQueue.async {
                    answered.withLock { $0 += 1 }; answer()
                }
            }
            let monitor = StallMonitor(probes: [count, .concurrencyPool(), .actor(probed, name: "actor")], configuration: configuration)
            monitor.start()
            return {
                monitorThread = max(monitorThread, monitor.ownCPUTime)
                monitor.stop()
                pings += answered.withLock { $0 }
            }
        })
}
let monitorShare = max(0, withMonitor - without) / (monitorSeconds / 2)
let threadShare = (Double(monitorThread.components.seconds) + Double(monitorThread.components.attoseconds) / 1e18) / (monitorSeconds / 2)

// Where the monitor thread's time goes: each probe alone, and none.
/// The monitor thread's share of a core in steady state: its CPU time over `seconds`, counted
/// from one second after it started (thread start-up is a one-time cost).
func monitorThreadShare(_ probes: [StallMonitor.Probe], seconds: Double) -> Double {
    let monitor = StallMonitor(probes: probes)
    monitor.start()
    _ = DispatchSemaphore(value: 0).wait(timeout: .now() + 1)
    let warm = monitor.ownCPUTime
    _ = DispatchSemaphore(value: 0).wait(timeout: .now() + seconds)
    let used = monitor.ownCPUTime - warm
    monitor.stop()
    return (Double(used.components.seconds) + Double(used.components.attoseconds) / 1e18) / seconds
}
/// The floor on this machine: a bare thread that only sleeps 100 ms at a time (nanosleep) and
/// wakes, for `seconds` after a one-second warm-up; its own CPU time as a share of a core.
func bareThreadShare(seconds: Double) -> Double {
    let result = Locked<Double?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        func cpu() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        var request = timespec(tv_sec: 0, tv_nsec: 100_000_000), left = timespec()
        for _ in 0..<10 { nanosleep(&request, &left) }
        let start = cpu()
        for _ in 0..<Int(seconds * 10) { nanosleep(&request, &left) }
        let used = cpu() - start
        result.withLock { $0 = used / seconds }
        done.signal()
    }
    thread.start()
    done.wait()
    return result.withLock { $0 } ?? 0
}
let breakdownSeconds = monitorSeconds / 4
let breakdown: [(String, Double)] = [
    (
        "serial queue, concurrency pool, actor",
        monitorThreadShare([.queue(probedQueue), .concurrencyPool(), .actor(probed, name: "actor")], seconds: breakdownSeconds)
    ),
    ("no probe", monitorThreadShare([], seconds: breakdownSeconds)),
    ("(floor: a bare thread sleeping and waking at 10 Hz, no monitor)", bareThreadShare(seconds: breakdownSeconds)),
    ("serial queue", monitorThreadShare([.queue(probedQueue)], seconds: breakdownSeconds)),
    ("concurrency pool", monitorThreadShare([.concurrencyPool()], seconds: breakdownSeconds)),
    ("actor", monitorThreadShare([.actor(probed, name: "actor")], seconds: breakdownSeconds)),
]

// (b) Commit cost.
let calls = 1_000_000
let queue = DispatchQueue(label: "transaction-bench")
func perCall(_ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = ContinuousClock.now
        body()
        queue.sync {}  // what was asked for has run
        let elapsed = ContinuousClock.now - start
        best = min(best, (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) / Double(calls))
    }
    return best
}
let counter = Locked(0)
let plainAsync = perCall { for _ in 0..<calls { queue.async { counter.withLock { $0 += 1 } } } }
let transaction = Transaction(on: .queue(queue))
let oneKey = perCall { for _ in 0..<calls { transaction.commit("layout") { counter.withLock { $0 += 1 } } } }
let hundredKeys = perCall { for index in 0..<calls { transaction.commit(index % 100) { counter.withLock { $0 += 1 } } } }

func ns(_ seconds: Double) -> String { String(format: "%.0f ns", seconds * 1e9) }
print("Release build, \(ProcessInfo.processInfo.activeProcessorCount) cores.")
print("")
print("### StallMonitor at 10 Hz, three probes (serial queue, concurrency pool, actor)")
print("")
print(
    "Process: the whole process's CPU with the monitor running minus without it, so the threads its pings wake (a dispatch worker, a pool thread, the actor's) count too. Monitor thread: `StallMonitor.ownCPUTime`, the monitor's thread alone."
)
print("")
print("| idle run | process CPU with the monitor | without | process share of one core | monitor thread's share | goal | queue pings answered |")
print("|---:|---:|---:|---:|---:|---|---:|")
print(
    "| \(String(format: "%.0f", monitorSeconds / 2)) s | \(String(format: "%.1f", withMonitor * 1000)) ms | \(String(format: "%.1f", without * 1000)) ms | \(String(format: "%.3f", monitorShare * 100)) % | \(String(format: "%.3f", threadShare * 100)) % | under 0.1 % | \(pings) |"
)
print("")
print(
    "The monitor thread alone in steady state (from one second after it started, \(String(format: "%.0f", breakdownSeconds)) s each, 10 Hz), by probe:"
)
print("")
print("| probes | monitor thread's share of one core |")
print("|---|---:|")
for (name, share) in breakdown { print("| \(name) | \(String(format: "%.3f", share * 100)) % |") }
print("")
print("### Transaction.commit against DispatchQueue.async per call")
print("")
print("\(calls) calls from one thread, then until the queue ran them; best of \(rounds).")
print("")
print("| contender | per call | against async |")
print("|---|---:|---:|")
print("| DispatchQueue.async, one block per call | \(ns(plainAsync)) | 1x |")
print("| Transaction.commit, one key | \(ns(oneKey)) | \(String(format: "%.2fx", oneKey / plainAsync)) |")
print("| Transaction.commit, 100 keys in turn | \(ns(hundredKeys)) | \(String(format: "%.2fx", hundredKeys / plainAsync)) |")
