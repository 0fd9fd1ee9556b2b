import Hummingbird
import Logging

/// One log line per request: method, path, status, bytes, milliseconds, type, and an error's
/// detail (what a library or the system said, which the client never sees). Server errors at
/// warning, the rest at debug.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, status: response.status, bytes: response.body.contentLength, type: response.headers[.contentType], since: started)
            return response
        } catch let error as ServiceError {
            log(request, status: error.status, bytes: nil, type: "application/json", detail: error.detail, since: started)
            throw error
        } catch let error as any HTTPResponseError {
            log(request, status: error.status, bytes: nil, type: nil, since: started)
            throw error
        } catch {
            log(request, status: .internalServerError, bytes: nil, type: nil, detail: "\(error)", since: started)
            throw error
        }
    }

    private func log(
        _ request: Request, status: HTTPResponse.Status, bytes: Int?, type: String?, detail: String? = nil, since started: ContinuousClock.Instant
    ) {
        let duration = ContinuousClock.now - started
        var metadata: Logger.Metadata = [
            "method": "\(request.method)", "path": "\(request.uri.path.prefix(300))", "status": "\(status.code)",
            "bytes": "\(bytes.map(String.init) ?? "-")", "ms": "\(Int((duration.inSeconds * 1000).rounded()))", "type": "\(type ?? "-")",
        ]
        if let detail { metadata["detail"] = "\(detail.prefix(500))" }
        logger.log(level: status.code >= 500 ? .warning : .debug, "request", metadata: metadata)
    }
}
