import Foundation
import YYCache
import YYImage
import YYWebImage

/// Where a source's bytes come from: `http(s)://` through the ``ImagePipeline`` (coalesced, kept
/// on disk and in the shared tier, revalidated by HTTP caching), `local:///path` from the root
/// folder. Sources outside the allow-list are refused before anything is fetched (and the loader
/// asks the list again on every redirect).
struct SourceFetcher: Sendable {
    let allowList: SourceAllowList
    /// The folder `local://` paths are read from; `nil` refuses them.
    let localRoot: String?
    let pipeline: ImagePipeline
    /// Originals recently fetched, by source.
    let recent: MemoryCache<String, Fetched>
    let maximumBytes: Int

    /// How long an original stays in memory: short, so that HTTP freshness (kept by the disk
    /// and shared levels) and changed local files are seen soon.
    static let recentLifetime: Duration = .seconds(60)

    /// A source's bytes and when they last changed, where the origin says.
    struct Fetched: Sendable {
        var data: Data
        /// The file's modification time, or the origin's `Last-Modified`.
        var lastModified: Date?

        init(data: Data, lastModified: Date? = nil) {
            self.data = data
            self.lastModified = lastModified
        }
    }

    /// The bytes of `source`.
    func data(for source: String) async throws(ServiceError) -> Data {
        try await fetch(source).data
    }

    /// The bytes of `source`, with when they last changed.
    func fetch(_ source: String) async throws(ServiceError) -> Fetched {
        guard allowList.allows(source) else {
            throw .notFound("the source is not allowed")
        }
        if let fetched = recent.value(forKey: source) { return fetched }
        let fetched: Fetched
        if source.hasPrefix("local://") {
            fetched = try localData(String(source.dropFirst("local://".count)))
        } else if source.hasPrefix("http://") || source.hasPrefix("https://"), let url = URL(string: source), url.host != nil {
            fetched = try await remoteData(url)
        } else {
            throw .badRequest("the source must be an http(s):// or local:// URL")
        }
        recent.setValue(fetched, forKey: source, cost: fetched.data.count, expiresAfter: Self.recentLifetime)
        return fetched
    }

    private func remoteData(_ url: URL) async throws(ServiceError) -> Fetched {
        do throws(ImagePipelineError) {
            let response = try await pipeline.data(for: ImageRequest(url: url))
            return Fetched(data: response.data, lastModified: response.headers["Last-Modified"].flatMap(HTTPDate.parse))
        } catch {
            throw Self.serviceError(for: error)
        }
    }

    /// A regular file under the root: no `..`, and no symbolic link below the root followed
    /// (``FileBeneathRoot``).
    private func localData(_ path: String) throws(ServiceError) -> Fetched {
        guard let localRoot else { throw .notFound("local sources are not enabled") }
        let components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !components.isEmpty, !components.contains(where: { $0 == ".." || $0 == "." }), !path.utf8.contains(0) else {
            throw .notFound("the local source is not a file under the root")
        }
        do throws(FileBeneathRoot.Failure) {
            let file = try FileBeneathRoot.read(components, under: localRoot, maximumBytes: maximumBytes)
            return Fetched(data: file.data, lastModified: file.modified)
        } catch .tooLarge {
            throw .unprocessable("the source is larger than \(maximumBytes) bytes")
        } catch {
            throw .notFound("the local source was not found")
        }
    }

    /// The pipeline's errors as imgproxy's statuses: missing → 404, refused address → 404, too
    /// large or no image → 422, origin timeout → 504, other origin failures → 502.
    static func serviceError(for error: ImagePipelineError) -> ServiceError {
        switch error {
        case .statusCode(let code) where code == 404 || code == 410: .notFound("the source was not found (origin answered \(code))")
        case .statusCode(let code): .badGateway("the origin answered \(code)")
        case .timedOut(let timeout): .gatewayTimeout("the origin timed out (\(timeout.rawValue))")
        case .tooLarge(let limit): .unprocessable("the source is larger than \(limit) bytes")
        case .decodingFailed(let error): ImageRenderer.serviceError(for: error)
        case .invalidResponse(let detail): .badGateway("the origin's response is invalid").logging(detail)
        case .invalidRedirect(let detail): .notFound("the origin's redirect was refused").logging(detail)
        case .unsupportedURL: .badRequest("the source URL is not valid")
        case .cancelled: .unavailable("the request was cancelled")
        case .transport(let detail): .badGateway("cannot reach the origin").logging(detail)
        case .refusedAddress: .notFound("the source's address is not allowed")
        }
    }
}
