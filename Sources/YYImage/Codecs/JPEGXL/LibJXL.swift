#if LibJXL
internal import CJXL
internal import Dispatch
internal import Foundation
import Synchronization

/// What every libjxl decoder and encoder of the process shares.
enum LibJXL {
    /// The parallel runner handed to `JxlDecoderSetParallelRunner` and its encoder twin; its
    /// opaque state is `nil`.
    ///
    /// libjxl's own thread pool refuses a second call while one is running (it returns an error,
    /// and the frame fails to decode), so one pool cannot serve decoders on several threads at
    /// once, and a pool per call would start and stop threads for every image. This runner keeps
    /// no state of its own: each call spreads its range over Dispatch's shared pool, so any
    /// number of decoders and encoders can call it at the same time.
    static let runner: JxlParallelRunner = { _, opaque, initialize, run, start, end in
        guard start <= end, let initialize, let run else { return JXL_PARALLEL_RET_RUNNER_ERROR }
        guard start < end else { return 0 }
        let workers = min(Int(end - start), ProcessInfo.processInfo.activeProcessorCount)
        let status = initialize(opaque, workers)
        guard status == 0 else { return status }
        // Each worker takes the next value until none is left, so a slow group does not hold
        // back values that another worker could take; its index is the thread id libjxl uses
        // for per-thread storage, below the `workers` announced to `initialize`. The counter is
        // an Int, so the few increments past `end` cannot wrap round to a value already run.
        let next = Atomic<Int>(Int(start))
        let state = SharedState(pointer: opaque)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            while true {
                let value = next.add(1, ordering: .relaxed).oldValue
                guard value < Int(end) else { return }
                run(state.pointer, UInt32(value), worker)
            }
        }
        return 0
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
