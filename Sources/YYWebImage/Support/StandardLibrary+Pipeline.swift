// The standard-library extensions YYWebImage's own code uses, kept in one place.

extension Task where Success == Never, Failure == Never {
    /// Throws `error` when the current task is cancelled.
    static func checkCancellation(or error: ImagePipelineError) throws(ImagePipelineError) {
        if Task.isCancelled { throw error }
    }
}

extension Result where Failure == ImagePipelineError {
    /// The result of async work with a typed error.
    init(catching body: () async throws(ImagePipelineError) -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
