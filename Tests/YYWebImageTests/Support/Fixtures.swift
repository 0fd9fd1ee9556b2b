import Foundation
import LoopbackHTTPServer
import TestSupport
import YYCache
import YYImage

@testable import YYWebImage

/// Images made by our own encoders, so the tests need no files.
enum Fixtures {
    /// A `width` × `height` PNG of a gradient.
    static func png(width: Int = 64, height: Int = 48) -> [UInt8] {
        [UInt8](try! ImageEncoder.encode(gradient(width: width, height: height), as: .png))
    }

    /// A baseline JPEG big enough to arrive in several chunks.
    static func jpeg(width: Int = 512, height: Int = 384) -> [UInt8] {
        [UInt8](try! ImageEncoder.encode(gradient(width: width, height: height), as: .jpeg, quality: 0.9))
    }

    /// A GIF of `frames` frames.
    static func gif(width: Int = 32, height: Int = 32, frames: Int = 3) -> [UInt8] {
        var encoder = ImageEncoder(type: .gif)
        for index in 0..<frames { encoder.addFrame(gradient(width: width, height: height, shift: index * 40), duration: 0.1) }
        return [UInt8](try! encoder.encode())
    }

    /// A tiny PNG whose header claims 50,000 × 50,000 pixels (a pixel bomb), CRC intact.
    static func pixelBomb() -> [UInt8] {
        var bytes = png(width: 1, height: 1)
        // IHDR's type, width and height sit at bytes 12..<24, its CRC at 29..<33.
        for offset in [16, 20] { write(50_000, into: &bytes, at: offset) }
        write(crc32(bytes[12..<29]), into: &bytes, at: 29)
        return bytes
    }

    private static func write(_ value: UInt32, into bytes: inout [UInt8], at offset: Int) {
        for byte in 0..<4 { bytes[offset + byte] = UInt8((value >> (24 - 8 * UInt32(byte))) & 0xFF) }
    }

    /// CRC-32 as PNG chunks use it (bit by bit: a fixture needs no table).
    private static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func gradient(width: Int, height: Int, shift: Int = 0) -> Bitmap {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                pixels[offset] = UInt8((x * 255 / max(1, width - 1) + shift) & 0xFF)
                pixels[offset + 1] = UInt8(y * 255 / max(1, height - 1))
                pixels[offset + 2] = UInt8((x + y + shift) & 0xFF)
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)!
    }
}

/// A pipeline over a loopback server, with small timeouts so that failures show quickly.
struct PipelineHarness {
    let server: LoopbackHTTPServer
    let pipeline: ImagePipeline
    let directory: TemporaryDirectory?

    /// - Parameters:
    ///   - disk: gives the pipeline a disk cache in a temporary folder.
    ///   - configure: changes the configuration before the pipeline is made.
    static func start(
        disk: Bool = false, idleReadTimeout: Duration = .seconds(15),
        configure: (inout ImagePipeline.Configuration) -> Void = { _ in },
        handler: @escaping LoopbackHTTPServer.Handler
    ) async throws -> PipelineHarness {
        let server = try await LoopbackHTTPServer.start(handler: handler)
        var loaderConfiguration = HTTPDataLoader.Configuration()
        loaderConfiguration.idleReadTimeout = idleReadTimeout
        var configuration = ImagePipeline.Configuration(dataLoader: HTTPDataLoader(configuration: loaderConfiguration))
        var directory: TemporaryDirectory?
        if disk {
            let folder = TemporaryDirectory("webimage")
            configuration.diskCache = try DiskCache(path: folder.path)
            directory = folder
        }
        configure(&configuration)
        return PipelineHarness(server: server, pipeline: ImagePipeline(configuration: configuration), directory: directory)
    }

    /// A second pipeline on the same disk cache and server, with an empty memory cache (what a
    /// second run of a program sees).
    func restarted(configure: (inout ImagePipeline.Configuration) -> Void = { _ in }) throws -> PipelineHarness {
        var configuration = ImagePipeline.Configuration(dataLoader: HTTPDataLoader())
        if let directory { configuration.diskCache = try DiskCache(path: directory.path) }
        configuration.now = pipeline.configuration.now
        configuration.clock = pipeline.configuration.clock
        configure(&configuration)
        return PipelineHarness(server: server, pipeline: ImagePipeline(configuration: configuration), directory: directory)
    }

    func url(_ path: String) -> URL { server.url(path) }

    /// The error a load of `path` fails with, or `nil` if it succeeds.
    func error(loading path: String, options: ImageRequest.Options = []) async -> ImagePipelineError? {
        do {
            _ = try await pipeline.image(for: ImageRequest(url: url(path), options: options))
            return nil
        } catch {
            return error
        }
    }
}

/// Answers the server's requests in the order they come with `replies`, each after its gate.
final class ScriptedReplies: @unchecked Sendable {
    // @unchecked: `next` is guarded by `lock`.
    private let lock = NSLock()
    private var next = 0
    let replies: [(gate: LoopbackHTTPServer.Gate?, reply: [LoopbackHTTPServer.Step])]

    init(_ replies: [(gate: LoopbackHTTPServer.Gate?, reply: [LoopbackHTTPServer.Step])]) { self.replies = replies }

    func reply(to request: LoopbackHTTPServer.Request) -> [LoopbackHTTPServer.Step] {
        let index = lock.withLock {
            defer { next += 1 }; return next
        }
        guard index < replies.count else { return .response(status: 404) }
        let (gate, reply) = replies[index]
        return (gate.map { [.waitFor($0)] } ?? []) + reply
    }
}
