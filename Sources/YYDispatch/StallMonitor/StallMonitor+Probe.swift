public import Dispatch

extension StallMonitor {
    /// Something the monitor pings: it must call the answer it is given when the thing it
    /// watches gets round to it. The monitor keeps at most one ping outstanding per probe.
    public struct Probe: Sendable {
        /// The name events carry.
        public let name: String
        let ping: @Sendable (_ answer: @escaping @Sendable () -> Void) -> Void

        /// A custom probe: `ping` arranges for `answer` to be called by what it watches.
        public init(name: String, ping: @escaping @Sendable (_ answer: @escaping @Sendable () -> Void) -> Void) {
            self.name = name
            self.ping = ping
        }

        /// Answers from a work item of `queue`: a blocked serial queue (or a concurrent queue
        /// out of threads) stalls.
        public static func queue(_ queue: DispatchQueue, name: String? = nil) -> Probe {
            Probe(name: name ?? queue.label) { answer in queue.async(execute: answer) }
        }

        /// Answers from a detached task: the cooperative thread pool stalls when every one of
        /// its threads is busy or blocked.
        public static func concurrencyPool(priority: TaskPriority = .medium) -> Probe {
            Probe(name: "concurrency pool") { answer in
                Task.detached(priority: priority) { answer() }
            }
        }

        /// Answers from a job isolated to `actor` (`MainActor.shared` watches the main actor).
        public static func actor<A: Actor>(_ actor: A, name: String) -> Probe {
            Probe(name: name) { answer in
                Task { await answerIsolated(to: actor, answer) }
            }
        }

        private static func answerIsolated<A: Actor>(to actor: isolated A, _ answer: () -> Void) { answer() }
    }
}
