import YYDispatch
public import YYImage

/// One request in flight: its progress and previews as events, a priority that can change, and
/// cancellation.
///
/// ```swift
/// let task = pipeline.imageTask(for: ImageRequest(url: url, options: .progressive))
/// Task { for await event in task.events { if case .preview(let bitmap) = event { show(bitmap) } } }
/// let response = try await task.response
/// ```
public final class ImageTask: Sendable {
    /// What a task reports while it runs.
    public enum Event: Sendable {
        /// Bytes of the body so far, and the total when the server declared it.
        case progress(received: Int, expected: Int?)
        /// A preview decoded from partial data (with ``ImageRequest/Options/progressive``).
        case preview(Bitmap)
    }

    /// The request as made.
    public let request: ImageRequest

    /// Progress and previews. Each access gives a stream of its own, so that any number of
    /// consumers each see every event (one stream read by two consumers would deal its events out
    /// between them). A stream starts with where the task is: the bytes received so far, and the
    /// newest preview while the task runs; it ends when the task ends, or at once if it has.
    /// A consumer slower than the download gets the newest 64 events.
    public var events: AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(64))
        let id = state.withLock { state -> Int? in
            // Under the lock that events are recorded under: none is missed or seen twice.
            if state.progress.received > 0 || state.progress.expected != nil {
                continuation.yield(.progress(received: state.progress.received, expected: state.progress.expected))
            }
            if state.isFinished { return nil }
            if let preview = state.newestPreview { continuation.yield(.preview(preview)) }
            state.nextSubscriber += 1
            state.subscribers.append((state.nextSubscriber, continuation))
            return state.nextSubscriber
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [state] _ in
            state.withLock { $0.subscribers.removeAll { $0.id == id } }
        }
        return stream
    }

    private let state: Locked<State>
    private let task: Task<Result<ImageResponse, ImagePipelineError>, Never>

    private let prioritySignal: PrioritySignal

    private struct State {
        var progress: (received: Int, expected: Int?) = (0, nil)
        var newestPreview: Bitmap?
        var subscribers: [(id: Int, continuation: AsyncStream<Event>.Continuation)] = []
        var nextSubscriber = 0
        var isFinished = false
    }

    init(request: ImageRequest, pipeline: ImagePipeline) {
        self.request = request
        let state = Locked(State())
        let priority = PrioritySignal(request.priority)
        self.prioritySignal = priority
        self.state = state
        self.task = Task {
            let result = await Result(catching: { () async throws(ImagePipelineError) -> ImageResponse in
                try await pipeline.load(
                    request,
                    priority: priority,
                    wantsPreviews: request.options.contains(.progressive),
                    onEvent: { event in
                        let subscribers = state.withLock { state in
                            switch event {
                            case .progress(let received, let expected): state.progress = (received, expected)
                            case .preview(let bitmap): state.newestPreview = bitmap
                            }
                            return state.subscribers
                        }
                        for subscriber in subscribers { subscriber.continuation.yield(event) }
                    })
            })
            let subscribers = state.withLock { state in
                state.isFinished = true
                state.newestPreview = nil
                defer { state.subscribers = [] }
                return state.subscribers
            }
            for subscriber in subscribers { subscriber.continuation.finish() }
            return result
        }
    }

    /// The priority the task runs at; raising it moves its download ahead of others waiting
    /// for a connection.
    public var priority: ImagePriority {
        get { prioritySignal.value }
        set { prioritySignal.set(newValue) }
    }

    /// Bytes received so far, and the total when known.
    public var progress: (received: Int, expected: Int?) { state.withLock { $0.progress } }

    /// The loaded image, or why there is none (`.cancelled` after ``cancel()``).
    public var response: ImageResponse {
        get async throws(ImagePipelineError) {
            try await task.value.get()
        }
    }

    /// Cancels this request. Work shared with other requests goes on for them.
    public func cancel() {
        task.cancel()
    }
}
