import Foundation

/// Runs `scripts/<script>` with `python` and reads the JSON object of seconds it prints (by row);
/// empty without a Python. `environment` adds to this process's environment.
public func runPeerScript(
    _ python: String?, script: String, _ arguments: [String],
    environment extra: [String: String] = [:]
) throws -> [String: Double] {
    guard let python else { return [:] }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [benchmarksFolder.appendingPathComponent("scripts/" + script).path] + arguments
    process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (try JSONSerialization.jsonObject(with: data) as? [String: Double]) ?? [:]
}
