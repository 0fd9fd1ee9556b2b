public import Foundation

/// The shared test data (`../shared/testdata` beside the repository). Never copied into the repo:
/// tests that need it are skipped, with this reason, when it is absent.
public enum TestData {
    /// `<repository>/../shared/testdata`, found from this file's location.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository
        .deletingLastPathComponent()
        .appendingPathComponent("shared/testdata")

    /// Whether the folder is there.
    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: root.path)
    }

    /// Why a test is skipped when the data is absent.
    public static let missingReason = "../shared/testdata is absent: the test needs the shared test data"

    /// The URL of `relativePath` inside the data folder.
    public static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// The files of a data subfolder, sorted by name.
    public static func files(in relativePath: String) -> [URL] {
        let folder = url(relativePath)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }
}
