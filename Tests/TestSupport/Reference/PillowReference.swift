import Foundation

/// Decodes images with Pillow (a reference no one here wrote) through `pillow_frames.py`.
///
/// The Python comes from `YYKIT_REFERENCE_PYTHON`, else `<repository>/.build-refs/venv/bin/python`
/// (made by `scripts/setup --reference`). Tests that need it are skipped, with
/// `missingReason`, when neither exists.
public enum PillowReference {
    /// One decoded frame.
    public typealias Frame = ReferenceFrame

    /// What Pillow reported about a file.
    public struct Result: Sendable {
        public var frames: [Frame]
        public var format: String
        public var loop: Int?
        public var durations: [Int?]
    }

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Python with Pillow, if any.
    public static let python: String? = {
        let candidates: [String?] = [
            ProcessInfo.processInfo.environment["YYKIT_REFERENCE_PYTHON"],
            repository.appendingPathComponent(".build-refs/venv/bin/python").path,
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether the reference can run.
    public static var isAvailable: Bool { python != nil }

    /// Why reference tests are skipped.
    public static let missingReason = "Pillow is not installed: run scripts/setup --reference (or set YYKIT_REFERENCE_PYTHON)"

    /// Decodes `path` with Pillow.
    public static func decode(_ path: String) throws -> Result {
        guard let python else { throw CocoaError(.fileNoSuchFile) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("pillow_frames.py").path
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("pillow-\(UUID().uuidString).rgba").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let output = try ChildProcess.run(python, [script, path, out])
        guard output.status == 0 else {
            throw NSError(domain: "PillowReference", code: Int(output.status), userInfo: [NSLocalizedDescriptionKey: output.standardError])
        }
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        func u32(_ offset: Int) -> Int {
            Int(data[offset]) | Int(data[offset + 1]) << 8 | Int(data[offset + 2]) << 16 | Int(data[offset + 3]) << 24
        }
        var frames: [ReferenceFrame] = []
        var offset = 12
        for _ in 0..<u32(0) {
            let (w, h) = (u32(offset), u32(offset + 4))
            offset += 8
            frames.append(ReferenceFrame(width: w, height: h, rgba: Array(data[offset..<(offset + w * h * 4)])))
            offset += w * h * 4
        }
        let info = try JSONSerialization.jsonObject(with: output.standardOutput) as? [String: Any] ?? [:]
        return Result(
            frames: frames, format: info["format"] as? String ?? "",
            loop: info["loop"] as? Int, durations: (info["durations"] as? [Any] ?? []).map { $0 as? Int })
    }
}

extension PillowReference {
    /// Runs `pillow_colour.py` with `arguments` (see the script for its commands).
    public static func colour(_ arguments: [String]) throws {
        try runScript("pillow_colour.py", arguments)
    }
}

extension PillowReference {
    /// `rgb` (`size` pixels of RGB bytes) resized to `width` × `height` with Lanczos 3 by `library`
    /// ("pillow" or "pyvips"); `nil` when that library is not installed.
    public static func resized(_ rgb: [UInt8], size: (width: Int, height: Int), width: Int, height: Int, library: String) throws -> [UInt8]? {
        guard let python else { return nil }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("resize_reference.py").path
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("source-\(UUID().uuidString).raw").path
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("resized-\(UUID().uuidString).raw").path
        defer {
            try? FileManager.default.removeItem(atPath: input)
            try? FileManager.default.removeItem(atPath: out)
        }
        try Data(rgb).write(to: URL(fileURLWithPath: input))
        let sizes = [size.width, size.height, width, height].map(String.init)
        let output = try ChildProcess.run(python, [script, library, input] + sizes + [out])
        if output.status == 3 { return nil }
        guard output.status == 0 else {
            throw NSError(domain: "PillowReference", code: Int(output.status), userInfo: [NSLocalizedDescriptionKey: output.standardError])
        }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }
}

/// One frame as a reference decoder gave it: straight RGBA8, rows packed.
public struct ReferenceFrame: Sendable {
    public var width: Int
    public var height: Int
    public var rgba: [UInt8]

    public init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }
}

extension PillowReference {
    /// Runs `format_reference.py` with `arguments` (see the script for its commands).
    public static func formats(_ arguments: [String]) throws {
        try runScript("format_reference.py", arguments)
    }

    /// The first frame of `path` as Pillow reads it, and whether its samples are premultiplied
    /// (Pillow's "RGBa", which it keeps as stored).
    public static func raw(_ path: String) throws -> (frame: ReferenceFrame, premultiplied: Bool) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("raw-\(UUID().uuidString).rgba").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        try formats(["raw", path, out])
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        func u32(_ offset: Int) -> Int {
            Int(data[offset]) | Int(data[offset + 1]) << 8 | Int(data[offset + 2]) << 16 | Int(data[offset + 3]) << 24
        }
        return (ReferenceFrame(width: u32(0), height: u32(4), rgba: Array(data[12...])), u32(8) == 1)
    }
}

extension PillowReference {
    /// `mark` drawn over `base` by Pillow's `alpha_composite` at (`x`, `y`) with its alpha times
    /// `opacity` (with `tiled`, repeated from there over all of `base`): straight RGBA bytes.
    public static func composited(base: String, mark: String, opacity: Double, x: Int, y: Int, tiled: Bool) throws -> [UInt8] {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("composite-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        try runScript("pillow_composite.py", [base, mark, "\(opacity)", "\(x)", "\(y)", tiled ? "1" : "0", out])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }
}

extension PillowReference {
    /// The picture at `path` (as RGB) through Pillow's `ImageEnhance.<kind>` (`Contrast` or
    /// `Color`) with `factor`: its RGB bytes, and the mean grey level `Contrast` pivots on.
    public static func enhanced(_ path: String, kind: String, factor: Double) throws -> (rgb: [UInt8], meanGrey: Int) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("enhance-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let printed = try runScript("pillow_enhance.py", [path, kind, "\(factor)", out])
        return ([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))), Int(printed.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1)
    }
}

extension PillowReference {
    /// Whether the reference Python has the `blurhash` and `thumbhash` packages.
    public static let hasPlaceholderHashes: Bool = {
        guard let python else { return false }
        return (try? ChildProcess.run(python, ["-c", "import blurhash, thumbhash"]).status) == 0
    }()

    /// Runs `placeholder_hashes.py` with `arguments` (see the script) and returns what it printed, trimmed.
    public static func placeholderHashes(_ arguments: [String]) throws -> String {
        try runScript("placeholder_hashes.py", arguments).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension PillowReference {
    /// Runs `shrink_reference.py` with `arguments` (see the script for its commands).
    public static func shrink(_ arguments: [String]) throws {
        try runScript("shrink_reference.py", arguments)
    }
}

extension PillowReference {
    /// Runs the script `name` of this folder with `arguments` under the reference Python; throws
    /// its standard error when it fails.
    /// Returns what it printed.
    @discardableResult
    fileprivate static func runScript(_ name: String, _ arguments: [String]) throws -> String {
        guard let python else { throw CocoaError(.fileNoSuchFile) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(name).path
        let output = try ChildProcess.run(python, [script] + arguments)
        guard output.status == 0 else {
            throw NSError(domain: "PillowReference", code: Int(output.status), userInfo: [NSLocalizedDescriptionKey: output.standardError])
        }
        return output.text
    }
}
