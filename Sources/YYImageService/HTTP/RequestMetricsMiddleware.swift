import Hummingbird

/// Counts every request in the service's own Prometheus registry: in flight, by status, time to
/// the response and bytes out (``ServiceMetrics``, whose handles are made once).
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        metrics.inFlight.increment()
        defer { metrics.inFlight.decrement() }
        do {
            let response = try await next(request, context)
            metrics.recordResponse(status: response.status.code, bytes: response.body.contentLength ?? 0, duration: .now - started)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            metrics.recordResponse(status: status.code, bytes: 0, duration: .now - started)
            throw error
        }
    }
}
