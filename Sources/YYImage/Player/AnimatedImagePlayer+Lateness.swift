/// The lateness policy: which frame a step shows, given the clock and what showed last.
extension AnimatedImagePlayer {
    /// What one step decided under the lock.
    enum Decision {
        /// Show frame `sequence` (frame `index` of its loop), due at `due`.
        case show(sequence: Int, index: Int, due: C.Instant, skipped: Int, token: UInt64?)
        /// Nothing to show now; wake at the instant (or never).
        case wait(C.Instant?)
        /// Every loop has played.
        case finish
    }

    /// Picks the frame to show at `now` by the lateness policy.
    @_specialize(where C == ContinuousClock)
    func decide(_ state: inout Playback, now: C.Instant) -> Decision {
        let timeline = state.timeline
        let frameCount = timeline.frameCount
        let isPlaying = state.status == .playing
        guard isPlaying || state.firstSequence != nil else { return .wait(nil) }
        let origin = state.origin ?? now.advanced(by: .zero - timeline.elapsed(forMedia: state.pausedMedia))
        let position = timeline.position(atMedia: timeline.mediaNanoseconds(elapsed: origin.duration(to: now)))
        let reached = position.loop * frameCount + position.frameIndex
        let token = state.bufferToken
        func show(_ sequence: Int, skipped: Int) -> Decision {
            let (loop, index) = sequence.quotientAndRemainder(dividingBy: frameCount)
            let due = origin.advanced(by: timeline.elapsed(forMedia: timeline.mediaStart(ofFrame: index, loop: loop)))
            return .show(sequence: sequence, index: index, due: due, skipped: skipped, token: token)
        }
        guard let shown = state.shownSequence else {
            // Nothing shows yet, or a seek: the frame asked for (`.hold`, however late) or the
            // frame of now (`.skip`). `publish` clears the request.
            let first = latenessPolicy == .hold ? state.firstSequence ?? reached : reached
            return show(first, skipped: 0)
        }
        // One frame played several times changes nothing until the end.
        if position.isFinished && (shown >= reached || frameCount == 1) { return .finish }
        guard reached > shown else {
            // Woken early (or for nothing): wait for the next change.
            return .wait(position.nextChange.map { origin.advanced(by: $0) })
        }
        switch latenessPolicy {
        case .hold:
            return show(shown + 1, skipped: 0)
        case .skip:
            return show(reached, skipped: reached - shown - 1)
        }
    }
}
