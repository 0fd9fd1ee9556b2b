import NIOCore

/// Runs the jobs of tasks that prefer it on one event loop's thread.
///
/// A request made from that thread is written to its connection directly, and the task that
/// awaits the reply is resumed on the same thread, so a caller making one request at a time does
/// not pay two thread wake-ups per request (about half of a loopback round trip on the benchmark
/// machine).
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
