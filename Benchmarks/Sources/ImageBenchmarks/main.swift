// YYImage's benchmarks, release build, every contender in the same run:
//   still decode megapixels/s (YYImage vs the C library called directly vs Pillow),
//   a full loop of each animation (vs giflib + a plain compositor, libwebp's WebPAnimDecoder, Pillow),
//   peak heap while iterating all frames (in canvases), and encode time and size (vs cwebp,
//   gif2webp and Pillow).
//
//   swift run -c release ImageBenchmarks [--images DIR] [--rounds N] [--python PATH]
import BenchmarkSupport
import Foundation
import YYImage

let option = commandLineOption
let benchmarks = benchmarksFolder
let images = sampleImagesFolder
let rounds = option("--rounds").flatMap(Int.init) ?? 3
let python = option("--python") ?? benchmarks.appendingPathComponent(".venv/bin/python").path
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("yyimage-bench-\(getpid())").path
try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: scratch) }

func load(_ path: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: path)!) }

if let file = option("--profile-loop") {
    // For profilers: decode every frame of one animation 50 times and nothing else.
    let data = Data(load(file))
    for _ in 0..<50 {
        let decoder = try ImageDecoder(data: data)
        for index in 0..<decoder.frameCount { blackHole &+= Int(try decoder.frame(at: index).pixels[0]) }
    }
    exit(0)
}
func sample(_ name: String) -> String { images + "/" + name }

// A long animation: cube@2x.png's 100 frames three times, as a GIF (300 frames, 192x192).
let longGIF = scratch + "/long-300.gif"
do {
    let cube = try ImageDecoder(data: Data(load(sample("demo/cube@2x.png"))))
    var encoder = ImageEncoder(type: .gif)
    for _ in 0..<3 { for index in 0..<cube.frameCount { encoder.addFrame(try cube.frame(at: index), duration: 0.04) } }
    try encoder.encode(to: URL(fileURLWithPath: longGIF))
}

/// Runs the Pillow script on `tasks` (name, kind, path); seconds and sizes by name.
func pillow(_ tasks: [(String, String, String)]) -> [String: (seconds: Double, size: Int)] {
    guard FileManager.default.isExecutableFile(atPath: python) else { return [:] }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [benchmarks.appendingPathComponent("scripts/pillow_image_bench.py").path, String(rounds)]
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try? process.run()
    let spec = tasks.map { ["name": $0.0, "kind": $0.1, "path": $0.2] }
    input.fileHandleForWriting.write(try! JSONSerialization.data(withJSONObject: spec))
    try? input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: [String: Double]] ?? [:]
    return object.mapValues { ($0["seconds"] ?? .nan, Int($0["size"] ?? 0)) }
}

/// Best wall time of a command (process start included), over `rounds` runs.
func command(_ executable: String, _ args: [String]) -> Double {
    var best = Double.infinity
    for _ in 0..<rounds {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = Date()
        guard (try? process.run()) != nil else { return .nan }
        process.waitUntilExit()
        best = min(best, Date().timeIntervalSince(start))
    }
    return best
}

func ratio(_ a: Double?, _ b: Double?) -> String {
    guard let a, let b, a.isFinite, b.isFinite, a > 0 else { return "–" }
    return f2(b / a) + "x"
}

print("Best of \(rounds) rounds. Ratios are speed ratios (higher = YYImage faster).")
print()

// MARK: Still decode

let stills: [(String, String, ([UInt8]) -> Void)] = [
    ("PNG", "demo/mew_baseline.png", { blackHole &+= Int(RawDecoders.png($0)[0]) }),
    ("PNG, Adam7", "demo/mew_interlaced.png", { blackHole &+= Int(RawDecoders.png($0)[0]) }),
    ("JPEG, baseline", "demo/mew_baseline.jpg", { blackHole &+= Int(RawDecoders.jpeg($0)[0]) }),
    ("JPEG, progressive", "demo/mew_progressive.jpg", { blackHole &+= Int(RawDecoders.jpeg($0)[0]) }),
    ("JPEG, Twitter@3x", "misc/Twitter@3x.jpg", { blackHole &+= Int(RawDecoders.jpeg($0)[0]) }),
    ("WebP, lossy + alpha", "demo/google@2x.webp", { blackHole &+= RawDecoders.webp($0) }),
    ("GIF", "demo/mew_baseline.gif", { blackHole &+= RawDecoders.gifAnimationLoop($0) }),
]
let stillPillow = pillow(stills.map { ($0.0, "decode", sample($0.1)) })
print("### Still decode (megapixels/s, RGBA output)")
print()
print("| image | size | YYImage | C library direct | Pillow | YYImage / C | YYImage / Pillow |")
print("|---|---|---:|---:|---:|---:|---:|")
for (name, file, raw) in stills {
    let bytes = load(sample(file))
    let data = Data(bytes)
    let decoder = try ImageDecoder(data: data)
    let megapixels = Double(decoder.canvasWidth * decoder.canvasHeight) / 1e6
    let times = try measure(
        rounds: rounds,
        [
            ("yy", { blackHole &+= Int(try ImageDecoder(data: data).frame(at: 0).pixels[0]) }),
            ("raw", { raw(bytes) }),
        ])
    let p = stillPillow[name]?.seconds
    print(
        "| \(name) | \(decoder.canvasWidth)x\(decoder.canvasHeight) | \(f1(megapixels / times["yy"]!)) | \(f1(megapixels / times["raw"]!)) | \(p.map { f1(megapixels / $0) } ?? "–") | \(ratio(times["yy"], times["raw"])) | \(ratio(times["yy"], p)) |"
    )
}
print()

// MARK: Animation loops

let animations: [(String, String, (([UInt8]) -> Void)?)] = [
    ("GIF, 300 frames (cube x3)", longGIF, { blackHole &+= RawDecoders.gifAnimationLoop($0) }),
    ("GIF, Demo.gif 51 frames", sample("misc/Demo.gif"), { blackHole &+= RawDecoders.gifAnimationLoop($0) }),
    ("ermilio GIF", sample("compare/ermilio.gif"), { blackHole &+= RawDecoders.gifAnimationLoop($0) }),
    ("ermilio APNG", sample("compare/ermilio.png"), nil),
    ("ermilio WebP q85", sample("compare/ermilio_q85.webp"), { blackHole &+= RawDecoders.webpAnimationLoop($0) }),
    ("ermilio WebP q90", sample("compare/ermilio_q90.webp"), { blackHole &+= RawDecoders.webpAnimationLoop($0) }),
    ("ermilio WebP lossless", sample("compare/ermilio_lossless.webp"), { blackHole &+= RawDecoders.webpAnimationLoop($0) }),
    ("cube APNG, 100 frames", sample("demo/cube@2x.png"), nil),
]
let loopPillow = pillow(animations.map { ($0.0, "loop", $0.1) })
print("### A full loop of an animation (ms; every frame composited at canvas size, RGBA)")
print()
print("C library: giflib's DGifSlurp + a plain compositor for GIF, libwebp's WebPAnimDecoder for WebP; APNG has no C decoder here.")
print()
print("| animation | frames | canvas | YYImage | C library | Pillow | YYImage / C | YYImage / Pillow |")
print("|---|---:|---|---:|---:|---:|---:|---:|")
for (name, path, raw) in animations {
    let bytes = load(path)
    let data = Data(bytes)
    let probe = try ImageDecoder(data: data)
    var contenders: [(String, () throws -> Void)] = [
        (
            "yy",
            {
                let decoder = try ImageDecoder(data: data)
                for index in 0..<decoder.frameCount { blackHole &+= Int(try decoder.frame(at: index).pixels[0]) }
            }
        )
    ]
    if let raw { contenders.append(("raw", { raw(bytes) })) }
    let times = try measure(rounds: rounds, contenders)
    let p = loopPillow[name]?.seconds
    print(
        "| \(name) | \(probe.frameCount) | \(probe.canvasWidth)x\(probe.canvasHeight) | \(f1(times["yy"]! * 1000)) | \(times["raw"].map { f1($0 * 1000) } ?? "–") | \(p.map { f1($0 * 1000) } ?? "–") | \(ratio(times["yy"], times["raw"])) | \(ratio(times["yy"], p)) |"
    )
}
print()

// MARK: Peak memory

print("### Peak heap while iterating every frame (one decoder, each frame released before the next)")
print()
print(
    "Heap in use (glibc mallinfo2) sampled after every frame, minus the heap before the decoder existed; the file's bytes, which the decoder keeps, are listed apart."
)
print()
print("| animation | canvas bytes | file bytes | peak above file bytes | in canvases |")
print("|---|---:|---:|---:|---:|")
for (name, path, _) in animations {
    let data = Data(load(path))
    let before = heapInUse()
    var peak = 0
    var canvasBytes = 0
    do {
        let decoder = try ImageDecoder(data: data)
        canvasBytes = decoder.canvasWidth * decoder.canvasHeight * 4
        for index in 0..<decoder.frameCount {
            let frame = try decoder.frame(at: index)
            blackHole &+= Int(frame.pixels[0])
            peak = max(peak, heapInUse() - before)
        }
    }
    let state = max(0, peak - data.count)
    print("| \(name) | \(canvasBytes) | \(data.count) | \(state) | \(f2(Double(state) / Double(canvasBytes))) |")
}
print()

// MARK: Encode

print("### Encode (ms and bytes)")
print()
print(
    "cwebp and gif2webp are timed as commands (process start included: about 1–2 ms here); YYImage and Pillow in-process, starting from decoded pixels."
)
print()
let mew = try ImageDecoder(data: Data(load(sample("demo/mew_baseline.png")))).frame(at: 0)
let ermilio = try ImageDecoder(data: Data(load(sample("compare/ermilio.gif"))))
let ermilioFrames = try (0..<ermilio.frameCount).map { (try ermilio.frame(at: $0), 0.07) }
let cube = try ImageDecoder(data: Data(load(sample("demo/cube@2x.png"))))
let cubeFrames = try (0..<cube.frameCount).map { (try cube.frame(at: $0), 0.04) }
func encoded(_ type: ImageType, _ frames: [(Bitmap, Double)], quality: Double? = nil) throws -> Data {
    var encoder = ImageEncoder(type: type)
    if let quality { encoder.quality = quality }
    for (frame, duration) in frames { encoder.addFrame(frame, duration: duration) }
    return try encoder.encode()
}
let encodePillow = pillow([
    ("webp", "encode-webp", sample("demo/mew_baseline.png")),
    ("webp-anim", "encode-webp-anim", sample("compare/ermilio.gif")),
    ("gif", "encode-gif", sample("demo/cube@2x.png")),
    ("png", "encode-png", sample("demo/mew_baseline.png")),
    ("jpeg", "encode-jpeg", sample("demo/mew_baseline.png")),
])
let encodeRows: [(String, String, ImageType, [(Bitmap, Double)], Double?, String?, [String])] = [
    (
        "WebP q80, mew 600x600", "webp", .webp, [(mew, 0)], 0.8, "/usr/bin/cwebp",
        ["-q", "80", sample("demo/mew_baseline.png"), "-o", scratch + "/cwebp.webp"]
    ),
    (
        "animated WebP q80, ermilio 28 frames", "webp-anim", .webp, ermilioFrames, 0.8, "/usr/bin/gif2webp",
        ["-lossy", "-q", "80", sample("compare/ermilio.gif"), "-o", scratch + "/gif2webp.webp"]
    ),
    ("GIF, cube 100 frames", "gif", .gif, cubeFrames, nil, nil, []),
    ("PNG, mew 600x600", "png", .png, [(mew, 0)], nil, nil, []),
    ("JPEG q90, mew 600x600", "jpeg", .jpeg, [(mew, 0)], 0.9, nil, []),
]
print("| task | YYImage ms | YYImage bytes | tool ms | tool bytes | Pillow ms | Pillow bytes |")
print("|---|---:|---:|---:|---:|---:|---:|")
for (name, key, type, frames, quality, tool, toolArguments) in encodeRows {
    var size = 0
    let times = try measure(rounds: rounds, [("yy", { size = try encoded(type, frames, quality: quality).count })])
    var toolTime = "–", toolSize = "–"
    if let tool, FileManager.default.isExecutableFile(atPath: tool) {
        toolTime = f1(command(tool, toolArguments) * 1000)
        let output = toolArguments.last!
        toolSize = String((try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0)
    }
    let p = encodePillow[key]
    print(
        "| \(name) | \(f1(times["yy"]! * 1000)) | \(size) | \(toolTime) | \(toolSize) | \(p.map { f1($0.seconds * 1000) } ?? "–") | \(p.map { String($0.size) } ?? "–") |"
    )
}
print()
// Printed to standard error, outside the recorded results: it keeps the work observable.
FileHandle.standardError.write(Data("(checksum \(blackHole & 0xFF))\n".utf8))
