import Hummingbird

extension ImageService {
    /// The service's routes: `/health`, the playground, `/info/…` and, for every other path,
    /// imgproxy's processing URL. Every request is logged and counted; anything but GET is a 405;
    /// with a secret, a request without it is a 403; with an allowed origin, CORS headers.
    ///
    /// The catch-all routes read the whole path as received (`request.uri.path`): a processing
    /// URL's empty segments (`plain/local:///x.jpg`) and base64 sources split by `/` reach the
    /// handler as they were sent.
    func makeRouter() -> Router<BasicRequestContext> {
        let handler = self.handler
        let readsHints = configuration.enablesClientHints
        let router = Router()
        // Outermost, so that a preflight is answered before the GET-only check and every answer,
        // an error's too, carries the origin.
        if let origin = configuration.allowOrigin {
            router.add(
                middleware: CORSMiddleware(
                    allowOrigin: origin == "*" ? .all : .custom(origin), allowHeaders: [.accept, .authorization, .ifNoneMatch, .ifModifiedSince],
                    allowMethods: [.get, .head, .options]))
        }
        router.add(middleware: RequestLogMiddleware(logger: configuration.logger))
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        router.add(middleware: GETOnlyMiddleware())
        if let secret = configuration.secret { router.add(middleware: BearerSecretMiddleware(secret: secret)) }
        router.get("/health") { _, _ in try handler.health() }
        if configuration.playground {
            let playground = PlaygroundPage(
                signature: configuration.signature, localRoot: configuration.localRoot, chosenSources: configuration.playgroundSources)
            for path in ["/", "/playground"] {
                router.get(RouterPath(path)) { request, _ in playground.page(source: request.uri.queryParameters["src"].map(String.init)) }
            }
        } else {
            router.get("/") { _, _ -> Response in throw ServiceError.notFound("nothing here: see the URL API") }
        }
        for path in ["/favicon.ico", "/robots.txt"] {
            router.get(RouterPath(path)) { _, _ -> Response in throw ServiceError.notFound("nothing here") }
        }
        router.get("/info/**") { request, _ in
            try await handler.info(path: String(request.uri.path.dropFirst("/info".count)))
        }
        router.get("**") { request, _ in
            try await handler.execute(
                .init(
                    path: request.uri.path, accept: request.headers[.accept], ifNoneMatch: request.headers[.ifNoneMatch],
                    ifModifiedSince: request.headers[.ifModifiedSince],
                    hints: readsHints ? ClientHints(request.headers) : nil))
        }
        return router
    }
}
