import Foundation
import TestSupport
import TestTraits
import Testing

@testable import YYDispatch

/// Output files written atomically when they are files, and in place when they are not.
@Suite(.hangLimit) struct FileOutputTests {
    let folder = TemporaryDirectory("fileoutput")

    @Test func aNewOrRegularFileIsWrittenWholeWithNoTemporaryFileLeft() throws {
        let path = folder.appending("out.bin")
        try FileOutput.write(Data("first".utf8), toPath: path)
        try FileOutput.write(Data("second, longer".utf8), toPath: path)
        #expect(FileManager.default.contents(atPath: path) == Data("second, longer".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.bin"])
    }

    @Test func aLinkToARegularFileStaysALinkAndItsFileIsReplaced() throws {
        let target = folder.appending("target.bin")
        let link = folder.appending("link.bin")
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try FileOutput.write(Data("new".utf8), toPath: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(FileManager.default.contents(atPath: target) == Data("new".utf8))
    }

    @Test func aPipeIsWrittenInPlaceAndStaysAPipe() throws {
        // An atomic write renamed a regular file over the FIFO: its reader got nothing.
        let fifo = folder.appending("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let payload = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let received = Locked(Data())
        let done = DispatchSemaphore(value: 0)
        Thread {
            // Opening a FIFO for reading waits for the writer; reading ends when it closes.
            let data = FileHandle(forReadingAtPath: fifo).flatMap { try? $0.readToEnd() } ?? Data()
            received.withLock { $0 = data }
            done.signal()
        }.start()
        try FileOutput.write(payload, toPath: fifo)
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(received.withLock { $0 } == payload)
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func aDeviceThatRefusesTheBytesIsAnErrorAndStaysADevice() throws {
        // /dev/full answers every write with ENOSPC, like a full disk. It is reached through a link
        // of the test's own, so that a broken write could only ever replace the link.
        let link = folder.appending("full")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/full")
        #expect(throws: (any Error).self) { try FileOutput.write(Data("x".utf8), toPath: link) }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/full")
    }
}
