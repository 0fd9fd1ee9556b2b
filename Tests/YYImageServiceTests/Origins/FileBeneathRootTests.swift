import Foundation
import TestSupport
import Testing
import YYDispatch

@testable import YYImageService

/// Files under the root are opened one component at a time, never through a symbolic link.
@Suite struct FileBeneathRootTests {
    @Test func aFileInAFolderUnderTheRootIsRead() throws {
        let root = TemporaryDirectory("beneath")
        try FileManager.default.createDirectory(atPath: root.appending("a/b"), withIntermediateDirectories: true)
        try Data("inside".utf8).write(to: URL(fileURLWithPath: root.appending("a/b/c.jpg")))
        let file = try FileBeneathRoot.read(["a", "b", "c.jpg"], under: root.path, maximumBytes: 100)
        #expect(file.data == Data("inside".utf8))
        // The modification time is the file's, to the second.
        let modified = try FileManager.default.attributesOfItem(atPath: root.appending("a/b/c.jpg"))[.modificationDate] as? Date
        #expect(abs(file.modified.timeIntervalSince(try #require(modified))) < 1)
        #expect(throws: FileBeneathRoot.Failure.tooLarge) { try FileBeneathRoot.read(["a", "b", "c.jpg"], under: root.path, maximumBytes: 5) }
    }

    @Test func linksFoldersAndSpecialFilesAreRefusedWhereverTheyStand() throws {
        let root = TemporaryDirectory("beneath")
        let outside = TemporaryDirectory("beneath-outside")
        try Data("secret".utf8).write(to: URL(fileURLWithPath: outside.appending("secret.jpg")))
        try Data("inside".utf8).write(to: URL(fileURLWithPath: root.appending("in.jpg")))
        let files = FileManager.default
        try files.createSymbolicLink(atPath: root.appending("out.jpg"), withDestinationPath: outside.appending("secret.jpg"))
        try files.createSymbolicLink(atPath: root.appending("same.jpg"), withDestinationPath: "in.jpg")
        try files.createSymbolicLink(atPath: root.appending("dir"), withDestinationPath: outside.path)
        try files.createDirectory(atPath: root.appending("folder"), withIntermediateDirectories: true)
        #expect(mkfifo(root.appending("fifo.jpg"), 0o600) == 0)
        for path in [["out.jpg"], ["same.jpg"], ["dir", "secret.jpg"], ["folder"], ["fifo.jpg"], ["missing.jpg"], ["in.jpg", "x"]] {
            #expect(throws: FileBeneathRoot.Failure.notFound, "\(path)") {
                try FileBeneathRoot.read(path, under: root.path, maximumBytes: 100)
            }
        }
    }

    @Test func aLinkSwappedInAndOutWhileReadingNeverLeadsOutside() async throws {
        let root = TemporaryDirectory("beneath")
        let outside = TemporaryDirectory("beneath-outside")
        let secret = Data("outside".utf8), inside = Data("inside".utf8)
        try secret.write(to: URL(fileURLWithPath: outside.appending("secret.jpg")))
        try inside.write(to: URL(fileURLWithPath: root.appending("original.jpg")))
        let target = root.appending("swap.jpg")
        // One thread swaps swap.jpg between a link to the outside file and the inside file (each
        // a rename over it, so the name always exists); this one reads it meanwhile.
        let (outsideReads, insideReads, refusals) = try await offThePool { () -> (Int, Int, Int) in
            let stop = Locked(false)
            let swapped = DispatchSemaphore(value: 0)
            let swapper = Thread {
                var toLink = true
                while !stop.withLock({ $0 }) {
                    let temporary = root.appending(toLink ? "link.tmp" : "file.tmp")
                    if toLink {
                        _ = symlink(outside.appending("secret.jpg"), temporary)
                    } else {
                        _ = link(root.appending("original.jpg"), temporary)
                    }
                    _ = rename(temporary, target)
                    toLink.toggle()
                }
                swapped.signal()
            }
            swapper.start()
            var counts = (outside: 0, inside: 0, refused: 0)
            for _ in 0..<20_000 {
                switch try? FileBeneathRoot.read(["swap.jpg"], under: root.path, maximumBytes: 100).data {
                case secret?: counts.outside += 1
                case inside?: counts.inside += 1
                default: counts.refused += 1
                }
            }
            stop.withLock { $0 = true }
            swapped.wait()
            return counts
        }
        #expect(outsideReads == 0)
        // The race ran: both kinds of entry were met.
        #expect(insideReads > 0 && refusals > 0, "inside \(insideReads), refused \(refusals)")
    }
}
