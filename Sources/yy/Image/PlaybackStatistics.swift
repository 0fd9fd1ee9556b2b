import Foundation

/// What `--stats` prints.
struct PlaybackStatistics {
    var framesShown = 0
    var lateFrames = 0
    var decodes = 0
    var peakBufferBytes = 0

    /// Prints the figures and the process's CPU time (user + system) to standard error.
    func print() {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        let cpu =
            Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        StandardStreams.printError(
            """
            frames shown: \(framesShown)
            late frames: \(lateFrames)
            decodes: \(decodes)
            peak buffer bytes: \(peakBufferBytes)
            cpu time: \(String(format: "%.3f", cpu)) s
            """)
    }
}
