import Foundation
import LoopbackHTTPServer
import TestSupport
import TestTraits
import Testing
import YYImage

/// `yy fetch` end to end against a loopback server: lines, `--json`, `--out`, `--cache`
/// revalidation, limits and the exit codes.
@Suite(.hangLimit) struct FetchCommandTests {
    /// 6 × 4 opaque red pixels.
    private let png = [UInt8](
        try! ImageEncoder.encode(
            Bitmap(width: 6, height: 4, pixels: Array([[UInt8]](repeating: [255, 0, 0, 255], count: 24).joined()))!, as: .png))

    func yy(_ arguments: [String]) throws -> ChildProcess.Output {
        let binary = try #require(BuildProducts.executable("yy"), "build the yy product first")
        return try ChildProcess.run(binary, arguments)
    }

    /// A server answering /a.png and /b.png with a PNG (ETag, `no-cache`), 304 to a matching
    /// If-None-Match, /page.png with HTML, /stall.png with nothing, and 404 otherwise.
    private func server() async throws -> LoopbackHTTPServer {
        let png = self.png
        return try await LoopbackHTTPServer.start { request in
            switch request.path {
            case "/a.png", "/b.png", "/dir/odd%20name":
                request.header("If-None-Match") == "\"1\""
                    ? .response(status: 304, headers: [("ETag", "\"1\""), ("Cache-Control", "no-cache")])
                    : .response(headers: [("ETag", "\"1\""), ("Cache-Control", "no-cache")], body: png)
            case let path where path.hasPrefix("/long") || path.hasPrefix("/same/"): .response(body: png)
            case "/page.png": .response(headers: [("Content-Type", "image/png")], body: Array("<html></html>".utf8))
            case "/stall.png": [.send(LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "99")])), .stall]
            default: .response(status: 404)
            }
        }
    }

    /// The JSON objects of `output`, one per line.
    private func objects(_ output: ChildProcess.Output) throws -> [[String: Any]] {
        try output.text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed]) as? [String: Any])
        }
    }

    @Test func fetchesPrintsOneLinePerURLAndDownloadsARepeatedURLOnce() async throws {
        let server = try await server()
        defer { server.stop() }
        let a = server.url("/a.png").absoluteString
        let result = try yy(["fetch", a, server.url("/b.png").absoluteString, a])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.text == """
                \(a): network 200 png 6x4, 1 frame, \(png.count) bytes
                \(server.url("/b.png").absoluteString): network 200 png 6x4, 1 frame, \(png.count) bytes
                \(a): network 200 png 6x4, 1 frame, \(png.count) bytes

                """)
        #expect(server.requestCount(path: "/a.png") == 1)
    }

    @Test func jsonHasEveryFieldAndTheSecondRunWithACacheRevalidates() async throws {
        let server = try await server()
        defer { server.stop() }
        let cache = TemporaryDirectory("fetch-cache")
        let url = server.url("/a.png").absoluteString
        let first = try objects(try yy(["fetch", "--json", "--cache", cache.path, url]))
        try #require(first.count == 1, "one line per URL")  // indexed below: a miss must fail the test, not trap
        #expect(Set(first[0].keys) == ["url", "source", "status", "type", "bytes", "width", "height", "frames", "error", "file"])
        #expect(first[0]["url"] as? String == url)
        #expect(first[0]["source"] as? String == "network")
        #expect(first[0]["status"] as? Int == 200)
        #expect(first[0]["type"] as? String == "png")
        #expect(first[0]["bytes"] as? Int == png.count)
        #expect(first[0]["width"] as? Int == 6)
        #expect(first[0]["height"] as? Int == 4)
        #expect(first[0]["frames"] as? Int == 1)
        #expect(first[0]["error"] is NSNull)

        let second = try objects(try yy(["fetch", "--json", "--cache", cache.path, url]))
        try #require(second.count == 1, "one line per URL")
        #expect(second[0]["source"] as? String == "revalidated")
        #expect(second[0]["status"] as? Int == 304)
        #expect(second[0]["bytes"] as? Int == png.count)
        #expect(server.requests.last?.header("If-None-Match") == "\"1\"")
    }

    @Test func outWritesTheOriginalBytesUnderSafeUniqueNames() async throws {
        let server = try await server()
        defer { server.stop() }
        let folder = TemporaryDirectory("fetch-out")
        _ = FileManager.default.createFile(atPath: folder.appending("a.png"), contents: Data("taken".utf8))
        let result = try yy(["fetch", "--out", folder.path + "/", server.url("/a.png").absoluteString, server.url("/dir/odd%20name").absoluteString])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(FileManager.default.contents(atPath: folder.appending("a-1.png")).map([UInt8].init) == png)
        #expect(FileManager.default.contents(atPath: folder.appending("odd_name.png")).map([UInt8].init) == png)
        #expect(FileManager.default.contents(atPath: folder.appending("a.png")) == Data("taken".utf8))

        // A name longer than a file name may be is cut to 200 characters before its extension.
        let long = "long" + String(repeating: "x", count: 296)
        #expect(try yy(["fetch", "--out", folder.path + "/", server.url("/\(long).png").absoluteString]).status == 0)
        #expect(FileManager.default.contents(atPath: folder.appending("\(long.prefix(200)).png")).map([UInt8].init) == png)

        let single = folder.appending("single.bin")
        #expect(try yy(["fetch", "--out", single, server.url("/b.png").absoluteString]).status == 0)
        #expect(FileManager.default.contents(atPath: single).map([UInt8].init) == png)

        // Through a link to standard output (as `--out /dev/stdout`), the bytes reach the pipe
        // before the report's line, and the link stays: an atomic write renamed a file over it.
        let link = folder.appending("stdout")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/fd/1")
        let piped = try yy(["fetch", "--out", link, server.url("/b.png").absoluteString])
        #expect(piped.status == 0, "\(piped.standardError)")
        #expect([UInt8](piped.standardOutput.prefix(png.count)) == png)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/fd/1")
    }

    /// Names were picked by looking for a free one, then written: two `yy fetch` runs into one
    /// folder could pick the same name and one download replace the other. And each URL ending in
    /// the same name looked past every earlier one again, n²/2 looks for n such URLs.
    @Test func twoRunsIntoOneFolderKeepEveryDownloadUnderItsOwnName() async throws {
        let server = try await server()
        defer { server.stop() }
        let folder = TemporaryDirectory("fetch-same-name")
        let binary = try #require(BuildProducts.executable("yy"), "build the yy product first")
        let runs = try (0..<2).map { run in
            try ChildProcess(
                binary,
                ["fetch", "--out", folder.path + "/"]
                    + (0..<150).map { server.url("/same/\(run)-\($0)/image.png").absoluteString })
        }
        for output in runs.map({ $0.wait() }) { #expect(output.status == 0, "\(output.standardError)") }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let expected = Set(["image.png"] + (1..<300).map { "image-\($0).png" })
        #expect(names.count == 300 && Set(names) == expected, "\(300 - names.count) of 300 downloads lost, overwritten by the other run")
        #expect(names.allSatisfy { FileManager.default.contents(atPath: folder.appending($0)).map([UInt8].init) == png })
    }

    #if os(Linux)
    @Test func memoryDoesNotGrowWithTheNumberOfURLs() async throws {
        // Every URL's decoded image was kept until the end: 300 URLs of one 1024x1024 image took
        // 1.3 GB. Each is now dropped once it is reported (and yy fetch keeps no memory cache).
        let pixels = [UInt8](repeating: 200, count: 1024 * 1024 * 4)
        let large = [UInt8](try ImageEncoder.encode(try #require(Bitmap(width: 1024, height: 1024, pixels: pixels)), as: .png))
        let server = try await LoopbackHTTPServer.start { request in
            request.path.hasPrefix("/large.png") ? .response(body: large) : .response(status: 404)
        }
        defer { server.stop() }
        let binary = try #require(BuildProducts.executable("yy"), "build the yy product first")
        func peak(ofURLs count: Int) throws -> Int {
            let urls = (0..<count).map { server.url("/large.png?\($0)").absoluteString }
            let run = try #require(PeakMemory.run(binary, ["fetch"] + urls))
            #expect(run.status == 0)
            return run.peakBytes
        }
        let few = try peak(ofURLs: 20)
        let many = try peak(ofURLs: 250)
        // Kept, the 230 more decoded images would be 920 MB more.
        #expect(many - few < 300 << 20, "peak \(few >> 20) MB for 20 URLs, \(many >> 20) MB for 250")
        #expect(server.requests.count == 270)
    }
    #endif

    @Test func anyFailedFetchExitsOneWithTheReasonInTheLine() async throws {
        let server = try await server()
        defer { server.stop() }
        let result = try yy([
            "fetch", "--json", server.url("/a.png").absoluteString, server.url("/missing.png").absoluteString, server.url("/page.png").absoluteString,
        ])
        #expect(result.status == 1)
        let errors = try objects(result).map { $0["error"] as? String }
        #expect(errors == [nil, "HTTP status 404", "not an image"])
        #expect(result.standardError.isEmpty, "the reasons are in the lines; nothing else is said")
    }

    @Test func aRefusedConnectionSaysSoInPlainWords() throws {
        let refusing = try LoopbackPort.refusing()
        defer { withExtendedLifetime(refusing) {} }  // the port stays refused until the test ends
        let port = refusing.port
        let result = try yy(["fetch", "http://127.0.0.1:\(port)/a.png"])
        #expect(result.status == 1)
        #expect(result.text == "http://127.0.0.1:\(port)/a.png: error: transport failure: Connection refused (errno \(ECONNREFUSED))\n")
    }

    @Test func aTimeoutBeyondAnyClockIsNoTimeout() async throws {
        let server = try await server()
        defer { server.stop() }
        let result = try yy(["fetch", "--timeout", "1e300", server.url("/a.png").absoluteString])
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test func timeoutAndMaxBytesFailTheFetch() async throws {
        let server = try await server()
        defer { server.stop() }
        let stalled = try yy(["fetch", "--timeout", "0.5", server.url("/stall.png").absoluteString])
        #expect(stalled.status == 1)
        #expect(stalled.text.hasSuffix("timeout\n"), "\(stalled.text)")
        let large = try yy(["fetch", "--max-bytes", "10", server.url("/a.png").absoluteString])
        #expect(large.status == 1)
        #expect(large.text.contains("error: response larger than 10 bytes"))
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try yy(["fetch"]).status == 2)
        #expect(try yy(["fetch", "ftp://example.com/a.png"]).status == 2)
        #expect(try yy(["fetch", "--timeout", "0", "http://127.0.0.1:9/a.png"]).status == 2)
    }

    @Test func anUnwritableOutExitsThree() async throws {
        let server = try await server()
        defer { server.stop() }
        let folder = TemporaryDirectory("fetch-io")
        _ = FileManager.default.createFile(atPath: folder.appending("file"), contents: Data())
        let result = try yy(["fetch", "--out", folder.appending("file/under/a.png"), server.url("/a.png").absoluteString])
        #expect(result.status == 3, "\(result.standardError)")
    }

    @Test func imagePlayAcceptsAURL() async throws {
        let server = try await server()
        defer { server.stop() }
        let played = try yy(["image", "play", "--protocol", "blocks", server.url("/a.png").absoluteString])
        #expect(played.status == 0, "\(played.standardError)")
        #expect(played.text.contains("▀"))
        #expect(try yy(["image", "play", server.url("/missing.png").absoluteString]).status == 1)
    }
}
