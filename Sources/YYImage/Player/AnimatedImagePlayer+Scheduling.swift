/// The schedule: how a player's plan waits for its next deadline (on the timer thread for the
/// continuous clock, in a task for any other) and takes its steps when woken.
extension AnimatedImagePlayer {
    /// A change of plan: its generation, and the wake-up it replaced (to cancel).
    struct Plan {
        let generation: Int
        let replaced: PlayerWake?
    }

    /// Cancels the replaced wake-up and starts the plan: its first step runs at once, on the
    /// thread that times the player (never on the caller's, so observers never run inside
    /// `play()` or `seek(toFrame:)`).
    func schedule(_ plan: Plan) {
        plan.replaced?.cancel()
        wake(at: clock.now, generation: plan.generation)
    }

    /// Arranges for the plan of `generation` to take its next step at `deadline`.
    @_specialize(where C == ContinuousClock)
    func wake(at deadline: C.Instant, generation: Int) {
        let wake: PlayerWake
        if usesTimerThread {
            // `C` is `ContinuousClock` (checked once, at init), so the instant is one: a plain
            // reinterpretation, where a dynamic cast would cost a conformance lookup per frame.
            let instant = unsafeBitCast(deadline, to: ContinuousClock.Instant.self)
            wake = .timer(PlaybackTimerThread.shared.schedule(at: instant, target: self, generation: generation))
        } else {
            let player = WeakPlayer(self)
            let clock = self.clock
            wake = .task(
                Task {
                    // A deadline already reached needs no sleep (a test clock would wait for an advance).
                    if clock.now < deadline {
                        do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
                    }
                    player.player?.advance(generation: generation)
                })
        }
        let stale = state.withLock { state -> Bool in
            guard state.generation == generation else { return true }
            state.wake = wake
            return false
        }
        if stale { wake.cancel() }
    }

    /// The player held weakly by its own schedule, so that releasing it ends playback.
    struct WeakPlayer: Sendable {
        weak var player: AnimatedImagePlayer?
        init(_ player: AnimatedImagePlayer) { self.player = player }
    }

    /// Takes steps until one has to wait: for a deadline (a wake-up is arranged) or for a frame
    /// being decoded (the decoder carries on when it is done).
    @_specialize(where C == ContinuousClock)
    func advance(generation: Int) {
        var next = step(generation: generation)
        while let deadline = next {
            guard clock.now >= deadline else { return wake(at: deadline, generation: generation) }
            next = step(generation: generation)
        }
    }
}

extension AnimatedImagePlayer: PlaybackTimerTarget {
    /// The timer thread's wake-up of the plan of `generation` (continuous clock only).
    func timerFired(generation: Int) {
        advance(generation: generation)
    }
}
