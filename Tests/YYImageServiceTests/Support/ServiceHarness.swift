import AsyncHTTPClient
import Foundation
import NIOCore
import ServiceLifecycle
import TestSupport
import YYImage
import YYImageService

/// An ``ImageService`` on an ephemeral loopback port, and an AsyncHTTPClient to ask it.
final class ServiceHarness: Sendable {
    let service: ImageService
    let port: Int
    let cacheFolder: TemporaryDirectory
    private let group: ServiceGroup
    private let task: Task<Void, any Error>
    private static let client = HTTPClient(eventLoopGroupProvider: .singleton)

    /// A response, whole.
    struct Reply: Sendable {
        var status: Int
        var headers: [(String, String)]
        var body: Data

        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }

        /// The JSON body's `error`.
        var errorMessage: String? {
            (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["error"] as? String
        }

        /// The body decoded as an image.
        func image() throws -> ImageDecoder { try ImageDecoder(data: body) }
    }

    /// Starts a service: loopback sources allowed, a fresh cache folder, then `configure`.
    static func start(_ configure: (inout ImageServiceConfiguration) -> Void = { _ in }) async throws -> ServiceHarness {
        let folder = TemporaryDirectory("serve")
        var configuration = ImageServiceConfiguration()
        configuration.port = 0
        configuration.cacheDirectory = folder.path
        configuration.addressPolicy = SourceAddressPolicy(allowsLoopback: true)
        configure(&configuration)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let service = try ImageService(configuration: configuration) { port in
            continuation.yield(port)
            continuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [service], logger: configuration.logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw HarnessError.notListening }
        return ServiceHarness(service: service, port: port, cacheFolder: folder, group: group, task: task)
    }

    private init(service: ImageService, port: Int, cacheFolder: TemporaryDirectory, group: ServiceGroup, task: Task<Void, any Error>) {
        self.service = service
        self.port = port
        self.cacheFolder = cacheFolder
        self.group = group
        self.task = task
    }

    /// GET `path` with `headers`.
    func get(_ path: String, headers: [(String, String)] = []) async throws -> Reply {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await Self.client.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 64 << 20)
        return Reply(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: Data(buffer: body))
    }

    /// Stops the service gracefully (as SIGTERM does) and waits for it.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }

    enum HarnessError: Error { case notListening }
}

/// Images the tests serve, made with our encoders.
enum TestImages {
    /// A `width` × `height` colour gradient (opaque).
    static func gradient(width: Int, height: Int, blue: UInt8 = 128) -> Bitmap {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                pixels[i] = UInt8(x * 255 / max(1, width - 1))
                pixels[i + 1] = UInt8(y * 255 / max(1, height - 1))
                pixels[i + 2] = blue
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)!
    }

    static func jpeg(width: Int = 640, height: Int = 480) -> [UInt8] {
        [UInt8](try! ImageEncoder.encode(gradient(width: width, height: height), as: .jpeg))
    }

    static func png(width: Int = 320, height: Int = 240) -> [UInt8] {
        [UInt8](try! ImageEncoder.encode(gradient(width: width, height: height), as: .png))
    }

    /// A 3-frame animated GIF of 60 × 40.
    static func animatedGIF() -> [UInt8] {
        var encoder = ImageEncoder(type: .gif)
        for blue: UInt8 in [0, 120, 240] {
            encoder.addFrame(gradient(width: 60, height: 40, blue: blue), duration: 0.1)
        }
        return [UInt8](try! encoder.encode())
    }

    /// PNG's CRC-32.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// A PNG whose header claims `side` × `side` pixels, with no pixel data worth the name.
    static func pixelBomb(side: UInt32 = 100_000) -> [UInt8] {
        var png = png(width: 8, height: 8)
        // IHDR's width and height sit at bytes 16...23, its CRC (over type and data) at 29...32.
        withUnsafeBytes(of: side.bigEndian) { png.replaceSubrange(16..<20, with: $0) }
        withUnsafeBytes(of: side.bigEndian) { png.replaceSubrange(20..<24, with: $0) }
        withUnsafeBytes(of: crc32(png[12..<29]).bigEndian) { png.replaceSubrange(29..<33, with: $0) }
        return png
    }
}
