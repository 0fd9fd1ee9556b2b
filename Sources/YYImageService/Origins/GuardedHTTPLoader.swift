import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import YYDispatch
import YYWebImage

/// The service's ``DataLoading``: one HTTP/1.1 GET per connection, to an address it has checked.
///
/// It resolves the host itself, refuses what the ``SourceAddressPolicy`` refuses, and connects to
/// the checked address (TLS still verifies the certificate for the host name), so the address
/// checked is the address used: a name that answers differently a moment later (DNS rebinding)
/// changes nothing. The pipeline follows redirects through this loader again, so every hop is
/// checked. The body is read here, counted as it arrives and cut off at `maximumBytes`.
struct GuardedHTTPLoader: DataLoading {
    let policy: SourceAddressPolicy
    let resolver: any SourceAddressResolver
    let connectTimeout: Duration
    let maximumBytes: Int
    let userAgent: String
    private let tls: NIOSSLContext?

    init(policy: SourceAddressPolicy, resolver: any SourceAddressResolver, connectTimeout: Duration, maximumBytes: Int, userAgent: String) {
        self.policy = policy
        self.resolver = resolver
        self.connectTimeout = connectTimeout
        self.maximumBytes = maximumBytes
        self.userAgent = userAgent
        tls = try? NIOSSLContext(configuration: .makeClientConfiguration())
    }

    func load(_ request: DataLoadRequest) async throws(ImagePipelineError) -> DataLoadResponse {
        guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let bracketed = components.host, !bracketed.isEmpty
        else { throw .unsupportedURL(request.url.absoluteString) }
        // An IPv6 literal without its brackets, whichever way Foundation gives it.
        let host = bracketed.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        let addresses = try await allowedAddresses(for: host)
        var lastError = ImagePipelineError.transport("no address to connect to")
        for address in addresses {
            if Task.isCancelled { throw .cancelled }
            do throws(ImagePipelineError) {
                return try await fetch(request, host: host, port: port, address: address, secure: scheme == "https")
            } catch .transport(let reason) {
                lastError = .transport(reason)  // not connected: try the next address
            }
        }
        throw lastError
    }

    /// The addresses of `host` the policy allows, or the refusal of the first one when none is.
    private func allowedAddresses(for host: String) async throws(ImagePipelineError) -> [String] {
        let resolved: [String]
        if ipAddressBytes(host) != nil {
            resolved = [host]
        } else {
            do {
                resolved = try await resolver.addresses(forHost: host)
            } catch {
                throw .transport(String(describing: error))
            }
        }
        let allowed = resolved.filter { policy.refusal(for: $0) == nil }
        guard !allowed.isEmpty else {
            throw .refusedAddress(resolved.first.flatMap { policy.refusal(for: $0) } ?? "\(host) has no address")
        }
        return allowed
    }

    /// One GET to `address`, its whole body read.
    private func fetch(_ request: DataLoadRequest, host: String, port: Int, address: String, secure: Bool) async throws(ImagePipelineError)
        -> DataLoadResponse
    {
        let channel = try await connect(to: address, port: port, host: host, secure: secure)
        do {
            let (head, body) = try await withTaskCancellationHandler {
                try await exchange(on: channel, request: request, host: host, port: port, secure: secure)
            } onCancel: {
                channel.channel.close(promise: nil)
            }
            var headers = HTTPHeaderFields()
            for (name, value) in head.headers { headers.append(name: name, value: value) }
            return DataLoadResponse(statusCode: Int(head.status.code), headers: headers, body: SingleChunk(data: body))
        } catch let error as ImagePipelineError {
            throw error
        } catch {
            throw Task.isCancelled ? .cancelled : .invalidResponse(String(describing: error))
        }
    }

    private typealias HTTPChannel = NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>

    private func connect(to address: String, port: Int, host: String, secure: Bool) async throws(ImagePipelineError) -> HTTPChannel {
        let tls = self.tls
        do {
            let socketAddress = try SocketAddress(ipAddress: address, port: port)
            return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.nanoseconds(connectTimeout.saturatingNanoseconds))
                .connect(to: socketAddress) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if secure {
                            guard let tls else { throw ImagePipelineError.transport("TLS is not available") }
                            // SNI and certificate checks use the name; an IP literal has no SNI.
                            let name = ipAddressBytes(host) == nil ? host : nil
                            try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: name))
                        }
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try HTTPChannel(wrappingChannelSynchronously: channel)
                    }
                }
        } catch ChannelError.connectTimeout {
            throw .timedOut(.connect)
        } catch let error as ImagePipelineError {
            throw error
        } catch let error as IOError {
            throw .transport("\(String(cString: strerror(error.errnoCode))) (errno \(error.errnoCode))")
        } catch {
            throw .transport(String(describing: error))
        }
    }

    /// Sends the request and reads the response; the channel is closed when it returns.
    private func exchange(on channel: HTTPChannel, request: DataLoadRequest, host: String, port: Int, secure: Bool) async throws
        -> (HTTPResponseHead, Data)
    {
        let limit = maximumBytes
        let defaultPort = secure ? 443 : 80
        let target = Self.requestTarget(of: request.url)
        let hostHeader = (host.contains(":") ? "[\(host)]" : host) + (port == defaultPort ? "" : ":\(port)")
        return try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target)
            head.headers.add(name: "Host", value: hostHeader)
            head.headers.add(name: "User-Agent", value: userAgent)
            head.headers.add(name: "Connection", value: "close")
            for field in request.headers { head.headers.add(name: field.name, value: field.value) }
            try await outbound.write(.head(head))
            try await outbound.write(.end(nil))
            var response: HTTPResponseHead?
            var body = Data()
            for try await part in inbound {
                switch part {
                case .head(let received):
                    // 1xx heads come before the real one.
                    if received.status.code >= 200 { response = received }
                case .body(let buffer):
                    guard body.count + buffer.readableBytes <= limit else { throw ImagePipelineError.tooLarge(limit: limit) }
                    body.append(contentsOf: buffer.readableBytesView)
                case .end:
                    if let response { return (response, body) }
                }
            }
            throw ImagePipelineError.transport("the connection closed before the response ended")
        }
    }

    /// The path and query to send.
    private static func requestTarget(of url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "/" }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return components.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }
}

/// A body that arrived whole, as the one chunk the pipeline reads.
private struct SingleChunk: AsyncSequence, Sendable {
    typealias Element = Data
    typealias Failure = any Error
    let data: Data

    struct AsyncIterator: AsyncIteratorProtocol {
        var data: Data?
        mutating func next() async throws -> Data? {
            defer { data = nil }
            return data
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(data: data) }
}
