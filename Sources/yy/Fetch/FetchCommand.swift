import ArgumentParser
import Foundation
import YYCache
import YYImage
import YYWebImage

/// `yy fetch URL...`: downloads images through the pipeline and reports each one.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch images through the YYWebImage pipeline.",
        discussion: """
            Prints one line per URL (with --json, one JSON object per line: url, source, status, type, bytes, \
            width, height, frames, error). The same URL given several times is downloaded once. With --cache the \
            original bytes are kept on disk with their HTTP validators; a later run uses them while fresh and \
            revalidates them (304) when stale.
            Exit codes: 0 all fetched, 1 any fetch failed (HTTP error, timeout, too large, not an image), 2 usage, \
            3 local I/O failure (the cache folder or --out cannot be written).
            """
    )

    @Argument(help: "http(s) URLs of images.")
    var urls: [String]

    @Option(help: "Write the original bytes to this file (one URL) or into this folder (names from the URLs).")
    var out: String?

    @Option(help: "A disk cache folder (created if missing).")
    var cache: String?

    @Option(help: "Seconds one request may take in all.")
    var timeout: Double = 60

    @Option(name: .customLong("max-bytes"), help: "The largest response body accepted, in bytes.")
    var maxBytes: Int = 64 << 20

    @Flag(help: "One JSON object per URL instead of a line of text.")
    var json = false

    func validate() throws {
        if urls.isEmpty { throw ValidationError("give at least one URL") }
        for text in urls {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
                throw ValidationError("'\(text)' is not an http(s) URL")
            }
        }
        if !(timeout.isFinite && timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds, not \(timeout)") }
        if maxBytes < 1 { throw ValidationError("--max-bytes must be at least 1, not \(maxBytes)") }
    }

    func run() async throws {
        let pipeline = try makePipeline()
        var seen = Set<String>()
        let distinct = urls.filter { seen.insert($0).inserted }  // first-given order; O(n), not a scan per URL
        var destination = try FetchDestination(out, urlCount: distinct.count)
        let keepsOriginals = destination != nil
        let progress = ProgressBar(title: "fetch")
        var reports: [String: FetchReport] = [:]
        var ioFailures: [String] = []
        await withTaskGroup(of: (String, FetchOutcome).self) { group in
            for text in distinct {
                group.addTask {
                    let request = ImageRequest(url: URL(string: text)!, options: .returnsOriginalData)
                    do throws(ImagePipelineError) {
                        let response = try await pipeline.image(for: request)
                        return (text, FetchOutcome(response, keepingOriginal: keepsOriginals, url: text))
                    } catch {
                        return (text, FetchOutcome(report: FetchReport(url: text, error: error)))
                    }
                }
            }
            // Outcomes are saved in the order the URLs were given, so that the names --out picks
            // (a.png, then a-1.png) do not depend on which download finished first; one that
            // finishes early waits here, with its original bytes but not its decoded image.
            var waiting: [String: FetchOutcome] = [:]
            var saved = 0
            for await (url, outcome) in group {
                waiting[url] = outcome
                while saved < distinct.count, var next = waiting.removeValue(forKey: distinct[saved]) {
                    saved += 1
                    if let original = next.original, destination != nil {
                        do {
                            next.report.savedTo = try destination?.write(original.data, for: URL(string: next.report.url)!, type: original.type)
                        } catch {
                            ioFailures.append("\(next.report.url): \(error)")
                        }
                    }
                    reports[next.report.url] = next.report
                }
                progress.update(saved + waiting.count, of: distinct.count)
            }
        }
        progress.finish()
        for text in urls {
            guard let report = reports[text] else { continue }
            print(json ? report.jsonLine() : report.textLine())
        }
        if !ioFailures.isEmpty { throw ToolFailure.failure(ioFailures.joined(separator: "\n")) }
        if reports.values.contains(where: { $0.error != nil }) { throw ExitCode(1) }
    }

    private func makePipeline() throws(ToolFailure) -> ImagePipeline {
        var loader = HTTPDataLoader.Configuration()
        // Up to a billion seconds (31 years): longer is no timeout.
        let limit = Duration.commandLineSeconds(timeout, atMost: 1e9)
        loader.idleReadTimeout = min(loader.idleReadTimeout, limit)
        loader.connectTimeout = min(loader.connectTimeout, limit)
        var configuration = ImagePipeline.Configuration(dataLoader: HTTPDataLoader(configuration: loader))
        // Each URL is fetched once, and its decoded image is dropped as soon as it is reported:
        // a memory cache would only keep up to a quarter of the machine's memory of them.
        configuration.memoryCache = nil
        configuration.requestTimeout = limit
        configuration.maximumResponseBytes = maxBytes
        if let cache {
            do {
                configuration.diskCache = try DiskCache(path: cache)
            } catch {
                throw .failure("cannot open the cache at \(cache): \(error)")
            }
        }
        return ImagePipeline(configuration: configuration)
    }
}
