// Lanczos-3 resize speed against Pillow, Pillow-SIMD and pyvips on a 24 MP photo (RGB and RGBA),
// one thread then all cores: megapixels of source per second, same run, same pixels. The input is
// made from a photo of ../shared/testdata/photos (enlarged to 6000×4000 with our Lanczos) and
// written raw, so that every contender resizes exactly the same bytes. Beside the speed, the
// quality: each contender's result against Pillow 13's (the pure Lanczos 3 kernel), and each
// thumbnail against the JPEG decoded whole and resized with Lanczos 3 (scripts/image_quality.py).
import BenchmarkSupport
import CTurboJPEGRaw
import Foundation
import YYImage

let rounds = commandLineOption("--rounds").flatMap(Int.init) ?? 3
let pillow = commandLineOption("--pillow")
let pillowSIMD = commandLineOption("--pillow-simd")
let photo =
    commandLineOption("--photo")
    ?? benchmarksFolder.deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/testdata/photos/fruits.png").path
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("yy-resize-bench").path
/// Where every contender leaves its results (one-thread pass) for the quality tables.
let results = folder + "/results"
try? FileManager.default.removeItem(atPath: results)
try FileManager.default.createDirectory(atPath: results, withIntermediateDirectories: true)

struct Row {
    let name: String, source: Bitmap, width: Int, height: Int
    var megapixels: Double { Double(source.width * source.height) / 1e6 }
}

/// Writes `bitmap` as raw bytes of `bands` channels (straight colour) to `name` in `folder`.
func raw(_ bitmap: Bitmap, bands: Int, name: String) throws -> String {
    let path = folder + "/" + name
    var bytes = [UInt8]()
    bytes.reserveCapacity(bitmap.width * bitmap.height * bands)
    let pixels = bitmap.packedPixels
    for i in stride(from: 0, to: pixels.count, by: 4) { bytes.append(contentsOf: pixels[i..<(i + bands)]) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}

let photoImage = try Image(contentsOfFile: photo).frame(at: 0)
var big = try ProcessingChain().resized(Resize(width: 6000, height: 4000, fit: .fill, enlarge: true)).apply(to: photoImage)
var translucent = big
for y in 0..<translucent.height {
    for x in stride(from: 0, to: translucent.width, by: 1) where (x / 64 + y / 64) % 3 == 0 {
        var p = translucent[x, y]; p.a = UInt8(64 + (x % 128)); translucent[x, y] = p
    }
}
let small = try ProcessingChain().resized(Resize(width: 1600, height: 1200, fit: .fill)).apply(to: big)
var smallTranslucent = try ProcessingChain().resized(Resize(width: 1600, height: 1200, fit: .fill)).apply(to: translucent)
let rows = [
    Row(name: "RGB 6000×4000 → 1/8 (750×500)", source: big, width: 750, height: 500),
    Row(name: "RGB 6000×4000 → 1000×667", source: big, width: 1000, height: 667),
    Row(name: "RGB 1600×1200 → 2x (3200×2400)", source: small, width: 3200, height: 2400),
    Row(name: "RGBA 6000×4000 → 1/8 (750×500)", source: translucent, width: 750, height: 500),
    Row(name: "RGBA 6000×4000 → 1000×667", source: translucent, width: 1000, height: 667),
    Row(name: "RGBA 1600×1200 → 2x (3200×2400)", source: smallTranslucent, width: 3200, height: 2400),
]
// `--profile-row N`: resizes row N our default way on one thread for `--seconds` (default 10)
// and exits, for `perf record` to see one row alone.
if let index = commandLineOption("--profile-row").flatMap(Int.init), rows.indices.contains(index) {
    let row = rows[index]
    var options = ResizeOptions()
    options.usesAllCores = false
    let chain = ProcessingChain().resized(Resize(width: row.width, height: row.height, fit: .fill, enlarge: true, options: options))
    let end = Date().addingTimeInterval(commandLineOption("--seconds").flatMap(Double.init) ?? 10)
    var count = 0
    while Date() < end {
        _ = try chain.apply(to: row.source)
        count += 1
    }
    print("\(row.name): \(count) resizes")
    exit(0)
}

// The thumbnail's source: a 24 MP JPEG file (quality 90) written by us from the same photo.
let jpegPath = folder + "/photo-6000x4000.jpg"
try ImageEncoder.encode(big, as: .jpeg, quality: 0.9).write(to: URL(fileURLWithPath: jpegPath))
let jpegData = try Data(contentsOf: URL(fileURLWithPath: jpegPath))

func ourThumbnail(_ type: ImageType, oneThread: Bool) throws -> Data {
    let data = try Data(contentsOf: URL(fileURLWithPath: jpegPath))
    var resizeOptions = ResizeOptions()
    resizeOptions.usesAllCores = !oneThread
    let chain = ProcessingChain().resized(Resize(width: 400, options: resizeOptions))
    let decoder = try ImageDecoder(data: data)
    let original = (width: decoder.orientedWidth, height: decoder.orientedHeight)
    let decoded = try decoder.frame(at: 0, shrinkOnLoad: chain.shrinkOnLoad(sourceWidth: original.width, sourceHeight: original.height))
    let thumbnail = try chain.apply(to: decoded, decodedFrom: original)
    return try ImageEncoder.encode(thumbnail, as: type, quality: type == .jpeg ? 0.9 : 0.8)
}

// `--profile-thumbnail jpeg|webp`: makes our thumbnail on one thread for `--seconds` (default 10)
// and exits before any table runs, for `perf record`.
if let format = commandLineOption("--profile-thumbnail") {
    let type: ImageType = format == "webp" ? .webp : .jpeg
    let end = Date().addingTimeInterval(commandLineOption("--seconds").flatMap(Double.init) ?? 10)
    var count = 0
    while Date() < end {
        _ = try ourThumbnail(type, oneThread: true)
        count += 1
    }
    print("thumbnail \(format): \(count)")
    exit(0)
}

let peerRows: [String] = try rows.enumerated().map { index, row in
    let bands = row.name.hasPrefix("RGBA") ? 4 : 3
    let path = try raw(row.source, bands: bands, name: "row\(index).raw")
    return "r\(index):\(path):\(row.source.width):\(row.source.height):\(bands):\(row.width):\(row.height)"
}

/// The peer's seconds per row; on the one-thread pass it leaves its results as `label-rN.raw`.
@MainActor func peer(_ python: String?, _ library: String, label: String, oneThread: Bool) throws -> [String: Double] {
    let save = oneThread ? ["--save", results + "/" + label] : []
    return try runPeerScript(
        python, script: "resize_peers.py", [library, String(rounds)] + save + peerRows,
        environment: oneThread ? ["VIPS_CONCURRENCY": "1"] : [:])
}

print("Lanczos 3, megapixels of source per second (higher is better), best of \(rounds); \(ProcessInfo.processInfo.activeProcessorCount) cores.")
print(
    "Peers resize with the pure kernel (no pre-shrink); the ratio is our default (gap 2) over the fastest peer. Pillow runs one thread; its rows repeat in the all-cores table."
)
for oneThread in [true, false] {
    let pillowTimes = try peer(pillow, "pillow", label: "pillow13", oneThread: oneThread)
    let simdTimes = try peer(pillowSIMD, "pillow", label: "pillow-simd", oneThread: oneThread)
    let vipsTimes = try peer(pillow, "pyvips", label: "pyvips", oneThread: oneThread)
    print()
    print(oneThread ? "**One thread** (`VIPS_CONCURRENCY=1`)" : "**All cores**")
    print()
    print("| row | ours (gap 2) | ours (no gap) | Pillow 13 | Pillow-SIMD | pyvips | ours (gap 2) / fastest peer (goal ≥ 1.1) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for (index, row) in rows.enumerated() {
        var withGap = ResizeOptions(), noGap = ResizeOptions()
        noGap.reducingGap = nil
        withGap.usesAllCores = !oneThread
        noGap.usesAllCores = !oneThread
        if oneThread {
            let bands = row.name.hasPrefix("RGBA") ? 4 : 3
            for (label, options) in [("ours-gap2", withGap), ("ours-no-gap", noGap)] {
                let result = try ProcessingChain().resized(Resize(width: row.width, height: row.height, fit: .fill, enlarge: true, options: options))
                    .apply(to: row.source)
                _ = try raw(result, bands: bands, name: "results/\(label)-r\(index).raw")
            }
        }
        let times = try measure(
            rounds: rounds,
            [
                (
                    "gap",
                    {
                        _ = try ProcessingChain().resized(Resize(width: row.width, height: row.height, fit: .fill, enlarge: true, options: withGap))
                            .apply(to: row.source)
                    }
                ),
                (
                    "pure",
                    {
                        _ = try ProcessingChain().resized(Resize(width: row.width, height: row.height, fit: .fill, enlarge: true, options: noGap))
                            .apply(to: row.source)
                    }
                ),
            ])
        func rate(_ seconds: Double?) -> String { seconds.map { String(format: "%.0f", row.megapixels / $0) } ?? "—" }
        let key = "r\(index)"
        let peers = [pillowTimes[key], simdTimes[key], vipsTimes[key]].compactMap { $0 }
        let ratio = peers.min().map { String(format: "%.2fx", $0 / times["gap"]!) } ?? "—"
        print(
            "| \(row.name) | \(rate(times["gap"])) | \(rate(times["pure"])) | \(rate(pillowTimes[key])) | \(rate(simdTimes[key])) | \(rate(vipsTimes[key])) | \(ratio) |"
        )
    }
}

/// Prints a table of `quality` (`"label/key": dB`) with one row per key and one column per label.
func printQuality(_ quality: [String: Double], rows: [(key: String, name: String)], labels: [(label: String, name: String)]) {
    print("| row | " + labels.map(\.name).joined(separator: " | ") + " |")
    print("|---|" + String(repeating: "---:|", count: labels.count))
    for row in rows {
        let cells = labels.map { label in
            quality["\(label.label)/\(row.key)"].map { $0 >= 100 ? "identical" : String(format: "%.2f", $0) } ?? "—"
        }
        print("| \(row.name) | " + cells.joined(separator: " | ") + " |")
    }
}

print()
print("Quality: PSNR (dB, RGB) of each result against Pillow 13's, the pure Lanczos 3 kernel (higher is closer; one-thread results).")
print()
let resizeQuality = try runPeerScript(
    pillow, script: "image_quality.py",
    ["resize", results, "pillow13"]
        + rows.enumerated().map { index, row in "r\(index):\(row.width):\(row.height):\(row.name.hasPrefix("RGBA") ? 4 : 3)" })
printQuality(
    resizeQuality, rows: rows.enumerated().map { ("r\($0.offset)", $0.element.name) },
    labels: [("ours-gap2", "ours (gap 2)"), ("ours-no-gap", "ours (no gap)"), ("pillow-simd", "Pillow-SIMD"), ("pyvips", "pyvips")])

// Thumbnail end to end: the 24 MP JPEG file written above to a 400 px wide JPEG (quality 90) and
// WebP (quality 80), bytes in memory. The floor is libjpeg-turbo decoding the file at the scale
// our shrink-on-load rule picks and nothing else.

/// The size our thumbnail's decode has: libjpeg-turbo's scale for the rule's side.
let floorSize: (width: Int, height: Int) = try {
    let decoder = try ImageDecoder(data: jpegData)
    let side = ProcessingChain().resized(Resize(width: 400)).shrinkOnLoad(sourceWidth: decoder.orientedWidth, sourceHeight: decoder.orientedHeight)
    let frame = try decoder.frame(at: 0, shrinkOnLoad: side)
    return (frame.width, frame.height)
}()

func floorDecode() {
    let handle = tjInitDecompress()
    defer { tjDestroy(handle) }
    var buffer = [UInt8](repeating: 0, count: floorSize.width * floorSize.height * 4)
    _ = jpegData.withUnsafeBytes { input in
        buffer.withUnsafeMutableBufferPointer { output in
            tjDecompress2(
                handle, input.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(jpegData.count), output.baseAddress,
                Int32(floorSize.width), Int32(floorSize.width * 4), Int32(floorSize.height), Int32(TJPF_RGBA.rawValue), 0)
        }
    }
}

/// The peer's seconds per thumbnail; on the one-thread pass it leaves them as `label-jpeg.jpg`
/// and `label-webp.webp`.
@MainActor func thumbnailPeer(_ python: String?, _ library: String, label: String, oneThread: Bool) throws -> [String: Double] {
    let save = oneThread ? ["--save", results + "/" + label] : []
    return try runPeerScript(
        python, script: "thumbnail_peers.py", [library, String(rounds), jpegPath, "400"] + save,
        environment: oneThread ? ["VIPS_CONCURRENCY": "1"] : [:])
}

print()
print(
    "Thumbnail end to end: 6000×4000 JPEG file (q90) → 400 px wide, milliseconds (lower is better), best of \(rounds) (ours and the floor taking turns, best of \(rounds) before the peers and \(rounds) after). The floor: libjpeg-turbo decoding the file alone at the scale our rule picks (\(floorSize.width)×\(floorSize.height))."
)
for oneThread in [true, false] {
    // Ours and the floor take turns within each round, so that their ratio is of one moment; they
    // run both before and after the peers and keep the better time, so that a slow spell of the
    // machine while one side runs does not decide the peers' ratios either.
    let ourContenders: [(String, () throws -> Void)] = [
        ("floor", { floorDecode() }),
        ("jpeg", { _ = try ourThumbnail(.jpeg, oneThread: oneThread) }),
        ("webp", { _ = try ourThumbnail(.webp, oneThread: oneThread) }),
    ]
    let before = try measure(rounds: rounds, ourContenders)
    let pillowTimes = try thumbnailPeer(pillow, "pillow", label: "pillow13", oneThread: oneThread)
    let simdTimes = try thumbnailPeer(pillowSIMD, "pillow", label: "pillow-simd", oneThread: oneThread)
    let vipsTimes = try thumbnailPeer(pillow, "pyvips", label: "pyvips", oneThread: oneThread)
    let oursTimes = try measure(rounds: rounds, ourContenders).merging(before, uniquingKeysWith: min)
    let floor = oursTimes["floor"]!
    print()
    print(oneThread ? "**One thread** (`VIPS_CONCURRENCY=1`)" : "**All cores**")
    print()
    print("| output | ours | Pillow 13 | Pillow-SIMD | pyvips | floor | fastest peer / ours (goal ≥ 1.1) | floor / ours |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for (kind, type) in [("jpeg", ImageType.jpeg), ("webp", .webp)] {
        let ours = oursTimes[kind]!
        if oneThread {
            try ourThumbnail(type, oneThread: true).write(to: URL(fileURLWithPath: results + "/ours-\(kind).\(kind == "jpeg" ? "jpg" : "webp")"))
        }
        func ms(_ seconds: Double?) -> String { seconds.map { String(format: "%.1f", $0 * 1000) } ?? "—" }
        let fastest = [pillowTimes[kind], simdTimes[kind], vipsTimes[kind]].compactMap { $0 }.min()
        print(
            "| \(kind == "jpeg" ? "JPEG q90" : "WebP q80") | \(ms(ours)) | \(ms(pillowTimes[kind])) | \(ms(simdTimes[kind])) | \(ms(vipsTimes[kind])) | \(ms(floor)) | \(fastest.map { String(format: "%.2fx", $0 / ours) } ?? "—") | \(String(format: "%.2f", floor / ours)) |"
        )
    }
}

print()
print(
    "Quality: PSNR (dB, RGB) of each thumbnail, decoded, against the JPEG decoded whole and resized with Lanczos 3 by Pillow (higher is closer; it includes the encoder's loss), and its size in bytes."
)
print()
let thumbnailFiles = ["ours", "pillow13", "pillow-simd", "pyvips"].flatMap { label in
    ["\(label)-jpeg.jpg", "\(label)-webp.webp"].map { results + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
}
let thumbnailQuality = try runPeerScript(pillow, script: "image_quality.py", ["thumbnail", jpegPath] + thumbnailFiles)
print("| output | ours | Pillow 13 | Pillow-SIMD | pyvips |")
print("|---|---:|---:|---:|---:|")
for (kind, name, suffix) in [("jpeg", "JPEG q90", "jpg"), ("webp", "WebP q80", "webp")] {
    let cells = ["ours", "pillow13", "pillow-simd", "pyvips"].map { label -> String in
        let file = results + "/\(label)-\(kind).\(suffix)"
        guard let dB = thumbnailQuality["\(label)-\(kind)"], let bytes = try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int
        else { return "—" }
        return String(format: "%.2f dB, %d bytes", dB, bytes)
    }
    print("| \(name) | " + cells.joined(separator: " | ") + " |")
}
