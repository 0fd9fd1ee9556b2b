import Foundation

/// The value after `name` on the command line (`--rounds 3`), or `nil`.
public func commandLineOption(_ name: String) -> String? {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// The `Benchmarks` folder of the repository.
public let benchmarksFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// YYKit's sample images: `--images DIR`, else `../shared/testdata/yykit/images` beside the clone.
public var sampleImagesFolder: String {
    commandLineOption("--images")
        ?? benchmarksFolder.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/testdata/yykit/images").path
}
