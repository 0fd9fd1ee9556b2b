/// A player's subscribers and observers, copied out of its lock to be told of an event.
struct PlayerListeners<Event: Sendable>: Sendable {
    /// The streams of `events()`.
    var subscribers: [AsyncStream<Event>.Continuation] = []
    /// The closures of `addObserver(_:)`.
    var observers: [@Sendable (Event) -> Void] = []

    /// Yields `event` to every subscriber, then calls every observer (outside the player's lock).
    func tell(_ event: Event) {
        for subscriber in subscribers { subscriber.yield(event) }
        for observer in observers { observer(event) }
    }
}
