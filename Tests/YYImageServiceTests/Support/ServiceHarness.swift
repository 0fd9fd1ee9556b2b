import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
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
