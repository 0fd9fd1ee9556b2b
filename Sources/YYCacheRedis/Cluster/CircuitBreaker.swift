/// Whether a node may be tried: a node that failed (timed out, refused, broke the protocol) is
/// skipped for a back-off period, then tried again with one request; a success closes the circuit,
/// a failure opens it for twice as long, up to a bound.
///
/// Times are durations since an arbitrary origin of a monotonic clock, so tests can move them by hand.
struct CircuitBreaker: Sendable {
    enum State: Sendable, Equatable {
        /// Requests go through.
        case closed
        /// Requests are refused until the back-off ends.
        case open(until: Duration)
        /// One request, sent at `since`, tries the node; others are refused until it answers (or
        /// until it has been out longer than `probeTimeout`, when another may try).
        case probing(since: Duration)
    }

    let initialBackoff: Duration
    let maximumBackoff: Duration
    let probeTimeout: Duration
    private(set) var state = State.closed
    private(set) var backoff: Duration
    /// How many times the circuit has opened.
    private(set) var openings = 0

    init(initialBackoff: Duration, maximumBackoff: Duration, probeTimeout: Duration) {
        precondition(initialBackoff > .zero && maximumBackoff >= initialBackoff, "back-off bounds out of order")
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.probeTimeout = probeTimeout
        backoff = initialBackoff
    }

    /// Whether a request may go to the node at `now`; a `true` after the back-off makes it the probe.
    mutating func admits(at now: Duration) -> Bool {
        switch state {
        case .closed:
            return true
        case .open(let until) where now >= until:
            state = .probing(since: now)
            return true
        case .probing(let since) where now - since >= probeTimeout:
            state = .probing(since: now)
            return true
        case .open, .probing:
            return false
        }
    }

    /// The node answered: requests go through again and the back-off starts over.
    mutating func recordSuccess() {
        state = .closed
        backoff = initialBackoff
    }

    /// The node failed at `now`: skip it for the back-off, which doubles for the next failure.
    mutating func recordFailure(at now: Duration) {
        if case .open = state { return }  // a request admitted before the circuit opened
        state = .open(until: now + backoff)
        backoff = min(backoff * 2, maximumBackoff)
        openings += 1
    }

    /// Whether requests are being refused at the moment.
    var isOpen: Bool { state != .closed }
}
