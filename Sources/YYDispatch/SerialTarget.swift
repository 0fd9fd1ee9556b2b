public import Dispatch

/// Where a tool runs its callbacks: a serial dispatch queue or an actor.
///
/// ```swift
/// let onMain = SerialTarget.queue(.main)
/// let onModel = SerialTarget.actor(model)     // any actor, MainActor.shared included
/// ```
public struct SerialTarget: Sendable {
    private let enqueue: @Sendable (_ body: @escaping @Sendable () -> Void) -> Void

    /// A serial dispatch queue: `body` runs as a work item of its own, after those queued before.
    public static func queue(_ queue: DispatchQueue) -> SerialTarget {
        SerialTarget { body in queue.async(execute: body) }
    }

    /// An actor: `body` runs isolated to it, in a job enqueued after the current one.
    public static func actor<A: Actor>(_ actor: A) -> SerialTarget {
        SerialTarget { body in
            Task { await runIsolated(to: actor, body) }
        }
    }

    /// The main queue.
    public static var main: SerialTarget { .queue(.main) }

    /// Runs `body` on the target, later.
    func schedule(_ body: @escaping @Sendable () -> Void) { enqueue(body) }

    private static func runIsolated<A: Actor>(to actor: isolated A, _ body: () -> Void) { body() }
}
