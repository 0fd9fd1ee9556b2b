import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOFoundationCompat
import ServiceLifecycle
import TestSupport
import YYImage

@testable import YYImageService

/// An ``ImageService`` to ask, one of two ways: in process, through HummingbirdTesting's router
/// framework (no socket on the service's side: URLs, options, statuses, headers), or live on an
/// ephemeral loopback port through AsyncHTTPClient (what needs a real server: connection
/// counting, the address guard's dialling, shutdown).
final class ServiceHarness: Sendable {
    let service: ImageService
    let cacheFolder: TemporaryDirectory
    private let transport: Transport
    private static let client = HTTPClient(eventLoopGroupProvider: .singleton)

    private enum Transport: Sendable {
        /// The router's test client, valid until `finish` lets the test framework's closure end.
        case router(client: any TestClientProtocol, finish: AsyncStream<Void>.Continuation, task: Task<Void, any Error>)
        case live(port: Int, group: ServiceGroup, task: Task<Void, any Error>)
    }

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

    /// The service's configuration for tests: loopback sources allowed, a fresh cache folder, a
    /// processing timeout of a minute (the whole suite runs beside CPU-bound tests that can hold
    /// both cores for seconds; a test of the timeout sets its own), then `configure`.
    private static func configuration(
        _ folder: TemporaryDirectory, _ configure: (inout ImageServiceConfiguration) -> Void
    ) -> ImageServiceConfiguration {
        var configuration = ImageServiceConfiguration()
        configuration.port = 0
        configuration.cacheDirectory = folder.path
        configuration.addressPolicy = SourceAddressPolicy(allowsLoopback: true)
        configuration.limits.processingTimeout = .seconds(60)
        configure(&configuration)
        return configuration
    }

    /// A service answered in process: its router, as `app.test(.router)` drives it.
    static func inProcess(_ configure: (inout ImageServiceConfiguration) -> Void = { _ in }) async throws -> ServiceHarness {
        let folder = TemporaryDirectory("serve")
        let configuration = configuration(folder, configure)
        let service = try ImageService(configuration: configuration)
        let application = Application(router: service.makeRouter(), logger: configuration.logger)
        let (clients, clientContinuation) = AsyncStream.makeStream(of: (any TestClientProtocol).self)
        let (finished, finish) = AsyncStream.makeStream(of: Void.self)
        // The test framework's closure hands its client out and waits for `stop()`.
        let task = Task {
            try await application.test(.router) { client in
                clientContinuation.yield(client)
                clientContinuation.finish()
                for await _ in finished {}
            }
        }
        var iterator = clients.makeAsyncIterator()
        guard let client = await iterator.next() else { throw HarnessError.notListening }
        return ServiceHarness(service: service, cacheFolder: folder, transport: .router(client: client, finish: finish, task: task))
    }

    /// A service on an ephemeral loopback port.
    static func start(_ configure: (inout ImageServiceConfiguration) -> Void = { _ in }) async throws -> ServiceHarness {
        let folder = TemporaryDirectory("serve")
        let configuration = configuration(folder, configure)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let service = try ImageService(configuration: configuration) { port in
            continuation.yield(port)
            continuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [service], logger: configuration.logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw HarnessError.notListening }
        return ServiceHarness(service: service, cacheFolder: folder, transport: .live(port: port, group: group, task: task))
    }

    /// The port of a live service (a browser or another process connects to it).
    var port: Int {
        guard case .live(let port, _, _) = transport else { preconditionFailure("an in-process service has no port") }
        return port
    }

    private init(service: ImageService, cacheFolder: TemporaryDirectory, transport: Transport) {
        self.service = service
        self.cacheFolder = cacheFolder
        self.transport = transport
    }

    /// GET `path` with `headers`.
    func get(_ path: String, headers: [(String, String)] = []) async throws -> Reply {
        try await request(path, method: .get, headers: headers)
    }

    /// `method` on `path` with `headers`.
    func request(_ path: String, method: HTTPRequest.Method, headers: [(String, String)] = []) async throws -> Reply {
        switch transport {
        case .router(let client, _, _):
            var fields = HTTPFields()
            for (name, value) in headers { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
            let response = try await client.execute(uri: path, method: method, headers: fields)
            return Reply(
                status: response.status.code, headers: response.headers.map { ($0.name.rawName, $0.value) },
                body: Data(buffer: response.body))
        case .live(let port, _, _):
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
            request.method = .init(rawValue: method.rawValue)
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            let response = try await Self.client.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 64 << 20)
            return Reply(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: Data(buffer: body))
        }
    }

    /// Stops the service: a live one gracefully (as SIGTERM does); both are waited for.
    func stop() async {
        switch transport {
        case .router(_, let finish, let task):
            finish.finish()
            _ = try? await task.value
        case .live(_, let group, let task):
            await group.triggerGracefulShutdown()
            _ = try? await task.value
        }
    }

    enum HarnessError: Error { case notListening }
}
