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
    /// Progress and previews; finishes when the task ends. Keeps the newest 64 events if no one
    /// reads them.
    public let events: AsyncStream<Event>

    private let state: Locked<State>
    private let task: Task<Result<ImageResponse, ImagePipelineError>, Never>

    private let prioritySignal: PrioritySignal

    private struct State {
        var progress: (received: Int, expected: Int?) = (0, nil)
    }

    init(request: ImageRequest, pipeline: ImagePipeline) {
        self.request = request
        let state = Locked(State())
        let priority = PrioritySignal(request.priority)
        self.prioritySignal = priority
        let (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(64))
        self.events = events
        self.state = state
        self.task = Task {
            let result = await Result(catching: { () async throws(ImagePipelineError) -> ImageResponse in
                try await pipeline.load(
                    request,
                    priority: priority,
                    wantsPreviews: request.options.contains(.progressive),
                    onEvent: { event in
                        if case .progress(let received, let expected) = event {
                            state.withLock { $0.progress = (received, expected) }
                        }
                        continuation.yield(event)
                    })
            })
            continuation.finish()
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
