import Foundation
import TestSupport
import Testing

/// `ChildProcess.run(timeLimit:)`, which the tests that run outside tools (headless Chromium) rely
/// on so that a child that hangs cannot hold the whole test run.
struct ChildProcessTimeLimitTests {
    @Test func aChildStillRunningAtItsLimitIsKilled() throws {
        let output = try ChildProcess.run("/bin/sleep", ["600"], timeLimit: .milliseconds(200))
        #expect(output.terminatedBySignal && output.status == SIGKILL)
    }

    @Test func aChildThatEndsInTimeKeepsItsOutputAndStatus() throws {
        let output = try ChildProcess.run("/bin/sh", ["-c", "echo done; exit 3"], timeLimit: .seconds(60))
        #expect(!output.terminatedBySignal && output.status == 3 && output.text == "done\n")
    }
}
