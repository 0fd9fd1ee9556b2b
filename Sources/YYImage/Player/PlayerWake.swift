/// How a player's plan waits for its next deadline: on the process's timer thread (continuous clock),
/// or in a task sleeping on the clock (any other clock, such as a test clock).
enum PlayerWake: Sendable {
    /// A wake-up on ``PlaybackTimerThread``, by its id.
    case timer(UInt64)
    /// A task sleeping on the player's clock.
    case task(Task<Void, Never>)

    /// Cancels the wake-up; its plan then takes no step.
    func cancel() {
        switch self {
        case .timer(let id): PlaybackTimerThread.shared.cancel(id)
        case .task(let task): task.cancel()
        }
    }
}
