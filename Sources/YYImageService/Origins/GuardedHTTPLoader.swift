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
/// checked, against the allow-list too. The body is read here, counted as it arrives and cut off at `maximumBytes`.
struct GuardedHTTPLoader: DataLoading {
    let policy: SourceAddressPolicy
    let allowList: SourceAllowList
    let resolver: any SourceAddressResolver
    let connectTimeout: Duration
    let maximumBytes: Int
    let userAgent: String
    private let tls: NIOSSLContext?

    init(
        policy: SourceAddressPolicy, allowList: SourceAllowList = .everySource, resolver: any SourceAddressResolver,
        connectTimeout: Duration, maximumBytes: Int, userAgent: String
    ) {
        self.policy = policy
        self.allowList = allowList
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
        guard allowList.allows(request.url.absoluteString) else {
            throw .refusedAddress("\(request.url.absoluteString) is not an allowed source")
        }
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

    /// One GET to `address`, its whole body read. Asked once more, on a new connection, when the
    /// origin closed the first before any byte of its answer (a server dropping connections
    /// under load): a GET may be repeated.
    private func fetch(_ request: DataLoadRequest, host: String, port: Int, address: String, secure: Bool) async throws(ImagePipelineError)
        -> DataLoadResponse
    {
        for _ in 1...2 {
            let channel = try await connect(to: address, port: port, host: host, secure: secure)
            do {
                let answer = try await withTaskCancellationHandler {
                    try await exchange(on: channel, request: request, host: host, port: port, secure: secure)
                } onCancel: {
                    channel.channel.close(promise: nil)
                }
                guard let answer else { continue }
                let (head, body) = answer
                var headers = HTTPHeaderFields()
                for (name, value) in head.headers { headers.append(name: name, value: value) }
                return DataLoadResponse(statusCode: Int(head.status.code), headers: headers, body: SingleChunk(data: body))
            } catch let error as ImagePipelineError {
                throw error
            } catch {
                throw Task.isCancelled ? .cancelled : .invalidResponse(String(describing: error))
            }
        }
        throw .transport("the origin closed the connection before answering, twice")
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

    /// Sends the request and reads the response, or `nil` when the connection ended before any
    /// byte of one; the channel is closed when it returns.
    private func exchange(on channel: HTTPChannel, request: DataLoadRequest, host: String, port: Int, secure: Bool) async throws
        -> (HTTPResponseHead, Data)?
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
            // Head and end in one write, and a failed write is no failure yet: an origin may
            // answer and close as soon as it has read the head, and its answer is then waiting
            // in `inbound` while a later write finds the channel closed.
            try? await outbound.write(contentsOf: [.head(head), .end(nil)])
            var response: HTTPResponseHead?
            var body = Data()
            var answered = false
            do {
                for try await part in inbound {
                    answered = true
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
            } catch  where !answered && !(error is ImagePipelineError) {
                return nil  // reset before answering
            }
            guard answered else { return nil }
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
