import Foundation
import YYDispatch

/// The network stage: one logical download, following redirects under the pipeline's rules and
/// retrying once after a 429 or 503 that says when to come back. Each HTTP request holds a
/// connection slot of its host (``ConcurrencyLimiter``) until its body is read. The download has
/// one deadline, ``ImagePipeline/Configuration/requestTimeout`` from its start, for every hop,
/// the retry and its wait, and every body byte: each request is cancelled at it (``DeadlineWatch``).
struct DownloadStage: Sendable {
    let configuration: ImagePipeline.Configuration
    let counters: Locked<ImagePipeline.Statistics>
    /// The connection slots, by host.
    let downloads: ConcurrencyLimiter
    /// The whole-request timeouts of the downloads in flight.
    let deadlines: DeadlineWatch

    /// The response that ended a download: a success with its body, or a 304.
    struct DownloadedResponse: Sendable {
        var statusCode: Int
        var headers: HTTPHeaderFields
        var body: Data
    }

    /// What the pipeline sends with every request. Identity only: a compressed body could
    /// inflate without bound, and images are compressed already.
    static let standardHeaders: HTTPHeaderFields = [
        "Accept": "image/webp,image/apng,image/*,*/*;q=0.8",
        "Accept-Encoding": "identity",
        "User-Agent": "YYWebImage",
    ]

    /// The response that ends the download of `url` (`validators` make it conditional).
    func download(_ url: URL, validators: HTTPHeaderFields, context: DataJobContext) async throws(ImagePipelineError) -> DownloadedResponse {
        var url = url
        var visited: Set<String> = [url.absoluteString]
        var redirects = 0
        var retried = false
        let deadline = ContinuousClock.now + configuration.requestTimeout
        while true {
            let response = try await downloadOnce(url, validators: validators, context: context, deadline: deadline)
            switch response {
            case .finished(let downloaded):
                return downloaded
            case .redirect(let location):
                guard let next = URL(string: location, relativeTo: url)?.absoluteURL else {
                    throw .invalidRedirect("unreadable Location '\(location)'")
                }
                let scheme = next.scheme?.lowercased()
                guard scheme == "http" || scheme == "https" else { throw .invalidRedirect("to a \(scheme ?? "relative") URL") }
                if url.scheme?.lowercased() == "https", scheme == "http" { throw .invalidRedirect("HTTPS to HTTP (\(next.absoluteString))") }
                redirects += 1
                guard redirects <= configuration.maximumRedirects else {
                    throw .invalidRedirect("more than \(configuration.maximumRedirects) redirects")
                }
                guard visited.insert(next.absoluteString).inserted else { throw .invalidRedirect("loop back to \(next.absoluteString)") }
                url = next
            case .retryAfter(let statusCode, let delay):
                // A wait that would end past the deadline fails now, not at the deadline.
                guard !retried, let delay, delay <= configuration.maximumRetryDelay, .now + delay < deadline else {
                    throw .statusCode(statusCode)
                }
                retried = true
                do {
                    try await configuration.clock.sleep(for: delay)
                } catch {
                    throw .cancelled
                }
            }
        }
    }

    private enum Outcome {
        case finished(DownloadedResponse)
        case redirect(location: String)
        case retryAfter(statusCode: Int, delay: Duration?)
    }

    /// One HTTP request, holding a connection slot of its host until its body is read, cancelled
    /// at the download's `deadline`.
    private func downloadOnce(_ url: URL, validators: HTTPHeaderFields, context: DataJobContext, deadline: ContinuousClock.Instant)
        async throws(ImagePipelineError) -> Outcome
    {
        var headers = Self.standardHeaders
        for field in validators { headers.append(name: field.name, value: field.value) }
        let request = DataLoadRequest(url: url, headers: headers, deadline: deadline)
        return try await downloads.withSlot(group: url.host ?? "", priority: context.priority) { () throws(ImagePipelineError) -> Outcome in
            try Task.checkCancellation(or: .cancelled)
            counters.withLock { $0.networkRequests += 1 }
            // AsyncHTTPClient's deadline stops at the response head; this one covers the body too.
            return try await withDeadline(deadline) { () throws(ImagePipelineError) -> Outcome in
                let response = try await self.configuration.dataLoader.load(request)
                switch response.statusCode {
                case 301, 302, 303, 307, 308:
                    guard let location = response.headers["Location"] else {
                        throw .invalidResponse("redirect \(response.statusCode) without a Location")
                    }
                    return .redirect(location: location)
                case 429, 503:
                    return .retryAfter(statusCode: response.statusCode, delay: response.headers["Retry-After"].flatMap { self.retryDelay($0) })
                case 304:
                    return .finished(DownloadedResponse(statusCode: 304, headers: response.headers, body: Data()))
                case 200..<300 where response.statusCode != 204 && response.statusCode != 205:
                    let body = try await self.readBody(of: response, context: context)
                    self.counters.withLock {
                        $0.downloads += 1; $0.downloadedBytes += body.count
                    }
                    return .finished(DownloadedResponse(statusCode: response.statusCode, headers: response.headers, body: body))
                default:
                    throw .statusCode(response.statusCode)
                }
            }
        }
    }

    /// `body`'s result, or `.timedOut(.request)` once `deadline` passes (`body` is then
    /// cancelled by the pipeline's one ``DeadlineWatch``, rather than by a sleeping child task per
    /// request).
    private func withDeadline<T: Sendable>(
        _ deadline: ContinuousClock.Instant,
        _ body: @escaping @Sendable () async throws(ImagePipelineError) -> T
    ) async throws(ImagePipelineError) -> T {
        let (result, expired) = await deadlines.run(until: deadline, body)
        do {
            return try result.get()
        } catch {
            throw expired ? .timedOut(.request) : ImagePipelineError(error)
        }
    }

    /// The body, within the size limit and its Content-Length, reporting progress as it comes.
    private func readBody(of response: DataLoadResponse, context: DataJobContext) async throws(ImagePipelineError) -> Data {
        if let encoding = response.headers["Content-Encoding"]?.trimmingHTTPSpaces(),
            !encoding.isEmpty, !encoding.caseInsensitiveEquals("identity")
        {
            throw .invalidResponse("\(encoding.lowercased())-encoded body although identity was asked")
        }
        let limit = configuration.maximumResponseBytes
        var expected: Int?
        if let text = response.headers["Content-Length"] {
            let digits = text.trimmingHTTPSpaces()
            guard digits.isASCIIDigits else { throw .invalidResponse("Content-Length '\(text)'") }
            // Too many digits for an Int is a length no one can accept either.
            guard let length = Int(digits) else { throw .tooLarge(limit: limit) }
            guard length <= limit else { throw .tooLarge(limit: limit) }
            expected = length
        }
        var body = Data()
        // Up to 4 MB reserved from Content-Length: a server that claims much and sends little
        // does not get to reserve the whole limit per request.
        if let expected { body.reserveCapacity(min(expected, 4 << 20)) }
        var lastPartial = ContinuousClock.now
        context.send(.progress(received: 0, expected: expected))
        do {
            for try await chunk in response.body {
                guard body.count + chunk.count <= limit else { throw ImagePipelineError.tooLarge(limit: limit) }
                if let expected, body.count + chunk.count > expected {
                    throw ImagePipelineError.invalidResponse("body longer than its Content-Length of \(expected) bytes")
                }
                body.append(chunk)
                context.send(.progress(received: body.count, expected: expected))
                let now = ContinuousClock.now
                if now - lastPartial >= configuration.previewInterval, context.wantsPartialResults {
                    lastPartial = now
                    context.send(.partialData(body))
                }
            }
        } catch {
            throw ImagePipelineError(error)
        }
        try Task.checkCancellation(or: .cancelled)
        if let expected, body.count < expected { throw .invalidResponse("body of \(body.count) bytes, Content-Length \(expected)") }
        guard !body.isEmpty else { throw .invalidResponse("empty body") }
        return body
    }

    /// Retry-After as a delay: seconds, or an HTTP date (RFC 9110 §10.2.3); `nil` if unreadable.
    private func retryDelay(_ value: String) -> Duration? {
        let text = value.trimmingHTTPSpaces()
        if let seconds = Int(text), seconds >= 0 { return .seconds(seconds) }
        guard let date = HTTPDate.parse(String(text)) else { return nil }
        return .milliseconds(max(0, Int((date.timeIntervalSince(configuration.now()) * 1000).rounded(.up))))
    }
}
