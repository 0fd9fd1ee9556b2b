import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import YYDispatch

/// The default ``DataLoading``: AsyncHTTPClient, with its body streamed under back-pressure.
///
/// The client never follows redirects and never decompresses (the pipeline follows redirects
/// under its own rules and refuses compressed bodies). Its connection pool keeps up to
/// ``Configuration/connectionsPerHost`` connections per host alive between requests.
///
/// A connection that cannot be made (refused, unreachable, a name that does not resolve) fails
/// the requests waiting for it at once, as URLSession and curl do, rather than after the connect
/// timeout (AsyncHTTPClient's default is to try again with back-off until then).
public final class HTTPDataLoader: DataLoading {
    /// Timeouts and pool size.
    public struct Configuration: Sendable {
        /// How long connecting may take (default 10 s).
        public var connectTimeout: Duration = .seconds(10)
        /// How long the server may send nothing while a response is read (default 15 s).
        public var idleReadTimeout: Duration = .seconds(15)
        /// Connections kept per host (default 6, like the pipeline's limit).
        public var connectionsPerHost = 6

        /// The defaults.
        public init() {}
    }

    private let client: HTTPClient

    /// A loader with its own AsyncHTTPClient.
    public init(configuration: Configuration = Configuration()) {
        var http = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: TimeAmount(configuration.connectTimeout), read: TimeAmount(configuration.idleReadTimeout)),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, configuration.connectionsPerHost)),
            decompression: .disabled)
        http.connectionPool.retryConnectionEstablishment = false
        http.httpVersion = .http1Only
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: http)
    }

    deinit {
        // AsyncHTTPClient wants an explicit shutdown; the client keeps itself alive until it is done.
        client.shutdown(queue: .global()) { _ in }
    }

    public func load(_ request: DataLoadRequest) async throws(ImagePipelineError) -> DataLoadResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = .GET
        for field in request.headers { outgoing.headers.add(name: field.name, value: field.value) }
        let deadline = request.deadline.map { NIODeadline.now() + TimeAmount(ContinuousClock.now.duration(to: $0)) } ?? .distantFuture
        var attempt = 0
        while true {
            do {
                let response = try await client.execute(outgoing, deadline: deadline)
                var headers = HTTPHeaderFields()
                for (name, value) in response.headers { headers.append(name: name, value: value) }
                return DataLoadResponse(
                    statusCode: Int(response.status.code), headers: headers,
                    body: ResponseBodyChunks(body: response.body))
            } catch {
                // A pooled connection the server closed (after junk, or an idle timeout) fails
                // before any response: a GET is idempotent, so it is sent once more, on a new one.
                attempt += 1
                guard attempt == 1, Self.isStaleConnection(error) else { throw Self.pipelineError(from: error) }
            }
        }
    }

    private static func isStaleConnection(_ error: any Error) -> Bool {
        (error as? HTTPClientError) == .remoteConnectionClosed || (error as? ChannelError) == .ioOnClosedChannel
    }

    /// AsyncHTTPClient's errors as the pipeline's.
    static func pipelineError(from error: any Error) -> ImagePipelineError {
        if let error = error as? IOError {
            // NIO's own wording is hard to read ("connection reset (error set): Connection
            // refused) (errno: 111)"); the system's words say it.
            return .transport("\(String(cString: strerror(error.errnoCode))) (errno \(error.errnoCode))")
        }
        if let error = error as? NIOConnectionError {
            // A host name: its lookup failed, or every address it gave failed to connect (said
            // for the first one, as `localhost` gives one address per family).
            if let unknown = (error.dnsAError ?? error.dnsAAAAError) as? SocketAddressError.UnknownHost {
                return .transport("cannot resolve host \(unknown.host): \(unknown.errorDescription)")
            }
            if let first = error.connectionErrors.first { return pipelineError(from: first.error) }
        }
        guard let error = error as? HTTPClientError else { return ImagePipelineError(error) }
        switch error {
        case .connectTimeout, .tlsHandshakeTimeout: return .timedOut(.connect)
        case .readTimeout, .writeTimeout: return .timedOut(.idleRead)
        case .deadlineExceeded: return .timedOut(.request)
        case .cancelled: return .cancelled
        case .invalidURL, .emptyHost, .emptyScheme: return .unsupportedURL(String(describing: error))
        default: return .transport(String(describing: error))
        }
    }
}

/// AsyncHTTPClient's body as `Data` chunks, with its errors made the pipeline's.
private struct ResponseBodyChunks: AsyncSequence, Sendable {
    typealias Element = Data
    typealias Failure = any Error
    let body: HTTPClientResponse.Body

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPClientResponse.Body.AsyncIterator

        mutating func next() async throws -> Data? {
            do {
                guard let buffer = try await base.next() else { return nil }
                return Data(buffer.readableBytesView)
            } catch {
                throw HTTPDataLoader.pipelineError(from: error)
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: body.makeAsyncIterator()) }
}

extension TimeAmount {
    /// A Swift `Duration` in NIO's nanoseconds, saturating.
    init(_ duration: Duration) {
        self = .nanoseconds(duration.saturatingNanoseconds)
    }
}
