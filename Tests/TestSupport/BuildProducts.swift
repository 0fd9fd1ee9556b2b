public import Foundation

/// Finds executables built by `swift build` next to the running test bundle.
public enum BuildProducts {
    /// The folder holding the test bundle: `.build/<triple>/<configuration>`.
    public static var directory: URL {
        var url = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).resolvingSymlinksInPath()
        // On Linux the bundle is an executable; on macOS a bundle folder `X.xctest/Contents/MacOS/X`.
        for _ in 0..<4 {
            url.deleteLastPathComponent()
            if url.lastPathComponent.hasSuffix(".xctest") { continue }
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("yy").path) { return url }
        }
        return URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
    }

    /// The path of the built executable `name`, or `nil` if it was not built.
    public static func executable(_ name: String) -> String? {
        let path = directory.appendingPathComponent(name).path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }
}
