import Hummingbird

/// Refuses, with 403, a request that does not send `Authorization: Bearer <secret>` (imgproxy's
/// `IMGPROXY_SECRET`), but for `/health`, which load balancers ask without credentials.
struct BearerSecretMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The digest of `Bearer <secret>`, as the header must hold it.
    private let expected: [UInt8]

    init(secret: String) {
        expected = SHA256Digest.of(Array("Bearer \(secret)".utf8))
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Digests compared in constant time: neither the time nor the length says how much was right.
        let given = SHA256Digest.of(Array((request.headers[.authorization] ?? "").utf8))
        guard request.uri.path == "/health" || URLSignature.constantTimeEqual(given, expected) else {
            throw ServiceError.invalidSecret
        }
        return try await next(request, context)
    }
}
