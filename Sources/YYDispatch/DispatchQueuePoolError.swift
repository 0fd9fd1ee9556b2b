/// Why a ``DispatchQueuePool`` could not be made.
public enum DispatchQueuePoolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The queue count asked for is outside ``DispatchQueuePool/queueCountRange``.
    case invalidQueueCount(requested: Int)

    /// A plain-language account of the error.
    public var description: String {
        switch self {
        case .invalidQueueCount(let requested): "a dispatch queue pool takes 1...32 queues, not \(requested)"
        }
    }
}
