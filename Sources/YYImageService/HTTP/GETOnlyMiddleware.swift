import Hummingbird

/// Refuses every method but GET with 405, before any route: the service only reads.
struct GETOnlyMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get else { throw ServiceError.methodNotAllowed }
        return try await next(request, context)
    }
}
