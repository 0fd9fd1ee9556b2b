import YYImage

/// An error the tool reports with a message and a specific exit code.
struct ToolFailure: Error {
    /// What went wrong, printed after `yy: `.
    let message: String
    /// The process exit code.
    let exitCode: Int32

    /// A "no" answer: a missing key, invalid input. Exit code 1.
    static func notFound(_ message: String) -> ToolFailure { ToolFailure(message: message, exitCode: 1) }
    /// A usage error the parser could not catch: exit code 2.
    static func usage(_ message: String) -> ToolFailure { ToolFailure(message: message, exitCode: 2) }
    /// A failure while doing the work: exit code 3.
    static func failure(_ message: String) -> ToolFailure { ToolFailure(message: message, exitCode: 3) }
}

extension ToolFailure {
    /// Runs `body`, turning any error it throws into a ``failure(_:)``.
    static func reporting<T>(_ body: () throws -> T) throws(ToolFailure) -> T {
        do {
            return try body()
        } catch let failure as ToolFailure {
            throw failure
        } catch {
            throw .failure("\(error)")
        }
    }
}

extension ToolFailure {
    /// "`path`: what went wrong", with the path said once: an ``ImageError/fileSystem(path:_:)``
    /// names its file itself.
    static func message(about path: String, _ error: any Error) -> String {
        if case .fileSystem(let errorPath, let reason)? = error as? ImageError { return "\(errorPath): \(reason)" }
        return "\(path): \(error)"
    }
}
