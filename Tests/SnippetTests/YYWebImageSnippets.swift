// swift-format-ignore-file
// (each snippet is the README's or the DocC catalog's code block, character for character)
import Foundation
import YYCache
import YYImage
import YYWebImage

// The README's YYWebImage example, compiled. Never called: it would go to the network.

func webImageSnippet(url: URL, nextPage: [URL]) async throws {
    // snippet.begin webimage
    var configuration = ImagePipeline.Configuration()          // memory cache, HTTPDataLoader
    configuration.diskCache = try DiskCache(path: "/var/cache/myapp/images")
    configuration.cacheKey = { url in url.absoluteString.components(separatedBy: "?token=")[0] }
    let pipeline = ImagePipeline(configuration: configuration)

    let response = try await pipeline.image(for: url)          // throws ImagePipelineError
    print(response.image.pixelWidth, response.source)          // 640 network (memory, disk, revalidated)

    let task = pipeline.imageTask(for: ImageRequest(url: url, priority: .high, options: [.progressive],
                                                    processors: [.thumbnail(maxPixelSize: 200)]))
    for await event in task.events {                           // .progress(received:expected:), .preview(Bitmap)
        if case .preview(let partial) = event { show(partial, part: UnitRect(x: 0, y: 0, width: 1, height: 1)) }
    }
    let thumbnail = try await task.response.image              // task.priority = .low, task.cancel()

    let prefetcher = ImagePrefetcher(pipeline: pipeline, destination: .diskCache)   // releasing it stops it
    prefetcher.startPrefetching(with: nextPage)
    // snippet.end
    _ = thumbnail
}
