#if LibJXL
internal import CJXL
internal import Dispatch
internal import Foundation
import Synchronization

/// What every libjxl decoder and encoder of the process shares.
enum LibJXL {
    /// The parallel runner handed to `JxlDecoderSetParallelRunner` and its encoder twin; its
    /// opaque state is `nil` (every core) or an unretained ``RunnerSettings``.
    ///
    /// libjxl's own thread pool refuses a second call while one is running (it returns an error,
    /// and the frame fails to decode), so one pool cannot serve decoders on several threads at
    /// once, and a pool per call would start and stop threads for every image. This runner keeps
    /// no state of its own: each call spreads its range over Dispatch's shared pool, so any
    /// number of decoders and encoders can call it at the same time.
    ///
    /// It never fails a run and never leaves one unfinished, so no checkpoint is asked here:
    /// libjxl aborts the process when some runs fail (`JXL_CHECK` around DC smoothing and the
    /// encoder's heuristics) and trips its assertions on work left undone. Deadlines are asked
    /// between libjxl's calls instead (before each frame).
    static let runner: JxlParallelRunner = { settingsPointer, opaque, initialize, run, start, end in
        guard let initialize, let run else { return JXL_PARALLEL_RET_RUNNER_ERROR }
        // An empty or reversed range runs nothing, as libjxl's own sequential runner does: it
        // asks for rows 1..<height-1 of a one-row DC image.
        guard start < end else { return 0 }
        let settings = settingsPointer.map { Unmanaged<RunnerSettings>.fromOpaque($0).takeUnretainedValue() }
        let workers = min(Int(end - start), settings?.maximumWorkers ?? ProcessInfo.processInfo.activeProcessorCount)
        let status = initialize(opaque, workers)
        guard status == 0 else { return status }
        // Each worker takes the next value until none is left, so a slow group does not hold
        // back values that another worker could take; its index is the thread id libjxl uses
        // for per-thread storage, below the `workers` announced to `initialize`. The counter is
        // an Int, so the few increments past `end` cannot wrap round to a value already run.
        let next = Atomic<Int>(Int(start))
        let state = SharedState(pointer: opaque)
        let work = { @Sendable (worker: Int) in
            while true {
                let value = next.add(1, ordering: .relaxed).oldValue
                guard value < Int(end) else { return }
                run(state.pointer, UInt32(value), worker)
            }
        }
        if workers == 1 {
            work(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers, execute: work)
        }
        return 0
    }

    /// What an encode or a decoder session tells ``runner``: how many threads it may use.
    final class RunnerSettings: Sendable {
        let maximumWorkers: Int

        init(maximumWorkers: Int) {
            self.maximumWorkers = maximumWorkers
        }
    }

    /// libjxl's state for one parallel run, which its contract lets the run function use from
    /// any thread.
    private struct SharedState: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer?
    }

    /// The pixel layout exchanged with libjxl: 8-bit, `channels` interleaved, native endian,
    /// rows packed.
    static func format(channels: Int) -> JxlPixelFormat {
        JxlPixelFormat(num_channels: UInt32(channels), data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
    }
}
#endif
