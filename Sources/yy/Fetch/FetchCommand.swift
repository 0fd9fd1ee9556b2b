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
        let distinct = urls.reduce(into: [String]()) { list, url in if !list.contains(url) { list.append(url) } }
        let destination = try FetchDestination(out, urlCount: distinct.count)
        let progress = ProgressBar(title: "fetch")
        let results = await withTaskGroup(of: (String, Result<ImageResponse, ImagePipelineError>).self) { group in
            for text in distinct {
                group.addTask {
                    let request = ImageRequest(url: URL(string: text)!, options: .returnsOriginalData)
                    do throws(ImagePipelineError) {
                        return (text, .success(try await pipeline.image(for: request)))
                    } catch {
                        return (text, .failure(error))
                    }
                }
            }
            var results: [String: Result<ImageResponse, ImagePipelineError>] = [:]
            for await (url, result) in group {
                results[url] = result
                progress.update(results.count, of: distinct.count)
            }
            return results
        }
        progress.finish()

        var ioFailures: [String] = []
        var reports: [String: FetchReport] = [:]
        for text in distinct {
            guard let result = results[text] else { continue }
            var report = FetchReport(url: text, result: result)
            if case .success(let response) = result, let data = response.data, let destination {
                do {
                    report.savedTo = try destination.write(data, for: URL(string: text)!, type: response.image.type)
                } catch {
                    ioFailures.append("\(text): \(error)")
                }
            }
            reports[text] = report
        }
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
