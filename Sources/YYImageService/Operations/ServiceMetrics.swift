import Prometheus
import YYDispatch

/// The service's Prometheus metrics, in a registry of its own (no process-wide metrics system):
/// requests by status, time per stage, result cache hits per level, work in flight, bytes out.
final class ServiceMetrics: Sendable {
    /// The stages a computed result's time is split into.
    enum Stage: String, CaseIterable {
        case queue, download, decode, process, encode
    }

    /// Where a result came from.
    enum CacheLevel: String, CaseIterable {
        case memory, disk, shared, coalesced, computed
    }

    let registry = PrometheusCollectorRegistry()
    private let requestDuration: DurationHistogram
    private let stages: [Stage: DurationHistogram]
    private let cacheLevels: [CacheLevel: Counter]
    let inFlight: Gauge
    let queued: Gauge
    private let bytesOut: Counter
    /// Response counters by status, each made once (the registry looks a name up under a lock).
    private let statusCounters = Locked<[Int: Counter]>([:])

    private static let buckets: [Duration] = [
        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
    ]

    private static func name(_ metric: String, unit: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "yy", subsystem: "serve", metricName: metric, unitName: unit, helpText: help)
    }

    init() {
        requestDuration = registry.makeDurationHistogram(
            descriptor: Self.name("request_duration", unit: "seconds", help: "Time from request to response"), buckets: Self.buckets)
        let stageName = Self.name("stage_duration", unit: "seconds", help: "Time per stage of a computed result")
        var stages: [Stage: DurationHistogram] = [:]
        for stage in Stage.allCases {
            stages[stage] = registry.makeDurationHistogram(descriptor: stageName, labels: [("stage", stage.rawValue)], buckets: Self.buckets)
        }
        self.stages = stages
        let resultsName = Self.name("results", unit: "total", help: "Results served, by the cache level that had them (computed: none did)")
        var levels: [CacheLevel: Counter] = [:]
        for level in CacheLevel.allCases {
            levels[level] = registry.makeCounter(descriptor: resultsName, labels: [("level", level.rawValue)])
        }
        cacheLevels = levels
        inFlight = registry.makeGauge(descriptor: Self.name("requests_in_flight", unit: "", help: "Requests being answered"))
        queued = registry.makeGauge(descriptor: Self.name("requests_queued", unit: "", help: "Requests waiting for a worker"))
        bytesOut = registry.makeCounter(descriptor: Self.name("response_bytes", unit: "total", help: "Bytes of response bodies"))
    }

    /// Counts a response.
    func recordResponse(status: Int, bytes: Int, duration: Duration) {
        counter(forStatus: status).increment()
        requestDuration.record(duration)
        bytesOut.increment(by: Int64(bytes))
    }

    private func counter(forStatus status: Int) -> Counter {
        if let counter = statusCounters.withLock({ $0[status] }) { return counter }
        let counter = registry.makeCounter(
            descriptor: Self.name("requests", unit: "total", help: "Requests answered, by status"), labels: [("status", String(status))])
        statusCounters.withLock { $0[status] = counter }
        return counter
    }

    func record(_ stage: Stage, _ duration: Duration) { stages[stage]?.record(duration) }

    /// The stage times of a computed result.
    func record(_ output: ImageRenderer.Output) {
        record(.decode, output.decoding)
        record(.process, output.processing)
        record(.encode, output.encoding)
    }

    func record(_ level: CacheLevel) { cacheLevels[level]?.increment() }

    /// The text exposition format.
    func exposition() -> String { registry.emitToString() }
}
