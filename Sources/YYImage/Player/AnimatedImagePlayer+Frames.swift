/// Showing frames: a step fetches the frame the lateness policy picked (from the shared buffer,
/// or once the decoder has it), records it and tells the listeners.
extension AnimatedImagePlayer {
    /// Shows what is due now. Returns when to step next, or `nil` when nothing is to be done
    /// until something changes (or a decode is awaited: then its completion carries on).
    @_specialize(where C == ContinuousClock)
    func step(generation: Int) -> C.Instant? {
        let now = clock.now
        let decision = state.withLock { state -> Decision in
            guard state.generation == generation else { return .wait(nil) }
            return decide(&state, now: now)
        }
        switch decision {
        case .wait(let deadline):
            return deadline
        case .finish:
            let listeners = state.withLock { state -> PlayerListeners<Event> in
                guard state.generation == generation else { return PlayerListeners() }
                state.status = .finished
                state.origin = nil
                state.pausedMedia = state.timeline.mediaStart(ofFrame: 0, loop: state.timeline.loopCount)
                return state.listeners
            }
            listeners.tell(.finished)
            return nil
        case .show(let sequence, let index, let due, let skipped, let token):
            if let token { buffer.move(token, to: index) }
            // A buffered frame comes back at once (the steady state: nothing allocated).
            if let held = buffer.heldContents(at: index) {
                return publish(
                    .success(held), sequence: sequence, due: due, skipped: skipped, shownAt: clock.now,
                    generation: generation)
            }
            // Otherwise, once the decoder is done, the plan steps again on its own thread (and
            // finds the frame buffered, or a later one due); a frame that cannot be decoded is
            // passed over.
            let player = WeakPlayer(self)
            let clock = self.clock
            let held = buffer.contents(at: index) { fetched in
                guard let player = player.player else { return }
                var next: C.Instant? = clock.now
                if case .failure = fetched {
                    next = player.publish(
                        fetched, sequence: sequence, due: due, skipped: skipped,
                        shownAt: clock.now, generation: generation)
                }
                if let next { player.wake(at: next, generation: generation) }
            }
            guard let held else { return nil }
            return publish(
                .success(held), sequence: sequence, due: due, skipped: skipped, shownAt: clock.now,
                generation: generation)
        }
    }

    /// Records a shown frame, tells subscribers and observers (outside the lock), and returns
    /// the next deadline.
    @_specialize(where C == ContinuousClock)
    func publish(
        _ fetched: Result<FrameContents, ImageError>, sequence: Int, due: C.Instant, skipped: Int,
        shownAt: C.Instant, generation: Int
    ) -> C.Instant? {
        let outcome = state.withLock { state -> (C.Instant?, FrameChange?, PlayerListeners<Event>) in
            guard state.generation == generation else { return (nil, nil, PlayerListeners()) }
            let timeline = state.timeline
            let frameCount = timeline.frameCount
            let lateness = due.duration(to: shownAt)
            if lateness > lateTolerance {
                state.statistics.lateFrames += 1
                // `.hold`: the rest of the animation moves back by the delay.
                if latenessPolicy == .hold, let origin = state.origin { state.origin = origin.advanced(by: lateness) }
            }
            state.statistics.maximumLateness = max(state.statistics.maximumLateness, lateness)
            state.statistics.framesSkipped += skipped
            state.shownSequence = sequence
            state.firstSequence = nil
            var change: FrameChange?
            switch fetched {
            case .success(let contents):
                state.shownContents = contents
                state.statistics.framesShown += 1
                change = FrameChange(
                    index: sequence % frameCount, loop: sequence / frameCount, contents: contents,
                    dueAt: due, shownAt: shownAt)
            case .failure:
                state.statistics.framesFailed += 1  // the previous frame stays
            }
            guard state.status == .playing, let origin = state.origin else { return (nil, change, state.listeners) }
            // The next change: the next frame, or the end of the last loop.
            let next = sequence + 1
            let media: Int64
            if timeline.loopCount > 0, next >= timeline.loopCount * frameCount || frameCount == 1 {
                media = timeline.mediaStart(ofFrame: 0, loop: timeline.loopCount)
            } else if frameCount == 1 && timeline.loopCount == 0 {
                return (nil, change, state.listeners)  // a still forever: never wake
            } else {
                media = timeline.mediaStart(ofFrame: next % frameCount, loop: next / frameCount)
            }
            return (origin.advanced(by: timeline.elapsed(forMedia: media)), change, state.listeners)
        }
        let (deadline, change, listeners) = outcome
        if let change { listeners.tell(.frame(change)) }
        return deadline
    }
}
