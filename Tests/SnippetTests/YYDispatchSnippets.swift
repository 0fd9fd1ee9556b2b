// swift-format-ignore-file
// (each snippet is the README's or the DocC catalog's code block, character for character)
import Dispatch
import Metrics
import YYDispatch

// The README's YYDispatch example, compiled. Never called: it would start a stall monitor.

/// Stand-ins for an app's own types.
final class View: Sendable {
    func layOut() {}
    func redraw() {}
}
final class Layer: Sendable {
    func show(_ bitmap: [UInt8]) {}
}
final class Listener: Sendable {
    func memoryWarning() {}
}
actor Store {}

final class Screen: Sendable {
    let view = View(), layer = Layer(), listener = Listener(), store = Store()
    let renderQueue = DispatchQueue(label: "render")
    let changes = [1, 2, 3], text = "Hello", visibleRows = 0..<20, nextPage = 2

    func work() {}
    func decode() throws -> Int { 0 }
    func render() async {}
    func render(_ rows: Range<Int>) {}
    func tick() {}
    func apply(_ change: Int) {}
    func draw(_ text: String) -> [UInt8] { Array(text.utf8) }
    func preload(_ page: Int) {}

    func dispatchSnippet() async throws {
        // snippet.begin dispatch
        let pool = try DispatchQueuePool(name: "decode", queueCount: 4, qos: .utility)  // 1...32 queues
        pool.queue.async { self.work() }                     // round-robin through an Atomic counter
        let size = try await pool.run { try self.decode() }  // blocking work off the cooperative pool
        Task(executorPreference: pool) { await self.render() }  // it is a TaskExecutor too
        let shared = DispatchQueuePool.shared(for: .utility) // one queue per processor the process may use

        let sentinel = Sentinel()                            // cancellation by generation number
        let ticket = sentinel.value; sentinel.increase()

        let timer = WeakTimer(interval: .seconds(5), target: self) { $0.tick() }  // stops when self is gone

        let counts = Locked([String: Int]())                 // a lock ThreadSanitizer can see
        counts.withLock { $0["hits", default: 0] += 1 }

        // Once per key at the end of this turn of the queue (or actor: `.actor(model)`), in first-commit order.
        let layout = Transaction(on: .queue(.main))
        for change in changes { apply(change); layout.commit("relayout") { self.view.layOut() } }
        layout.commit(target: view, action: "redraw") { $0.redraw() }   // YYTransaction's (target, selector)

        // Only the newest result publishes; older work sees isCancelled() and its result is dropped.
        let render = SupersedingWork<[UInt8]>(deliveringOn: .queue(.main))
        render.start({ isCancelled in isCancelled() ? nil : self.draw(self.text) }, publish: { self.layer.show($0) })

        // Observers held weakly; released ones vanish; called outside the lock.
        let observers = WeakObserverTable<Listener>()
        observers.add(listener); observers.forEach { $0.memoryWarning() }

        // Low-priority work in batches, only while the queue has no regular work (given through `async`).
        let idle = IdleWorkQueue(queue: renderQueue, batchSize: 4)
        idle.async { self.render(self.visibleRows) }
        let warm = idle.addIdleWork { self.preload(self.nextPage) }; warm.cancel()

        // Pings from a thread of its own; a probe silent past the threshold is a stall.
        var settings = StallMonitor.Configuration()            // 10 Hz, 250 ms threshold
        settings.metricsFactory = MetricsSystem.factory        // optional: ping latencies, stall counts (swift-metrics)
        let monitor = StallMonitor(probes: [.queue(.main, name: "main"), .concurrencyPool(), .actor(store, name: "store")],
                                   configuration: settings) { event in print(event) }
        monitor.start()
        // snippet.end
        _ = (size, shared, ticket, timer)
    }
}
