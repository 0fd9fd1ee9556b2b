// Decode and encode of a 12 MP photo in each format on a C library (TIFF, JPEG 2000, AVIF, HEIC,
// JPEG XL) and of a 1024-pixel icon as ICNS, against the Python peer that calls the same library
// (Pillow 13, pillow-heif, imagecodecs): milliseconds, same run, same bytes. The photo is made
// from ../shared/testdata/photos (enlarged to 4240×2832 with our Lanczos); the files decoded are
// written by our encoders (HEIC by libheif's heif-enc), so both sides read the same bytes.
import BenchmarkSupport
import Foundation
import YYImage

let rounds = commandLineOption("--rounds").flatMap(Int.init) ?? 3
let python = commandLineOption("--pillow")
let photo =
    commandLineOption("--photo")
    ?? benchmarksFolder.deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/testdata/photos/fruits.png").path
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("yy-format-bench").path
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

let source = try Image(contentsOfFile: photo).frame(at: 0)
let picture = try ProcessingChain().resized(Resize(width: 4240, height: 2832, fit: .fill, enlarge: true)).apply(to: source)
let icon = try ProcessingChain().resized(Resize(width: 1024, height: 1024, fit: .cover, enlarge: true)).apply(to: source)
let megapixels = Double(picture.width * picture.height) / 1e6

/// Writes `data` to the bench folder and returns its path.
func write(_ data: Data, _ name: String) throws -> String {
    let path = folder + "/" + name
    try data.write(to: URL(fileURLWithPath: path))
    return path
}

// The peers encode from these bytes: the same RGB pixels.
let rawPath = try write(Data(picture.packedPixels.enumerated().compactMap { $0.offset % 4 == 3 ? nil : $0.element }), "photo.rgb")
let iconPath = try write(try ImageEncoder.encode(icon, as: .png), "icon.png")

/// An encoder of `type` with the settings a row names.
func encoder(_ type: ImageType, quality: Double? = nil, lossless: Bool = false) -> ImageEncoder {
    var encoder = ImageEncoder(type: type)
    if let quality { encoder.quality = quality }
    encoder.lossless = lossless
    return encoder
}

func encoded(_ encoder: ImageEncoder, _ bitmap: Bitmap) throws -> Data {
    var encoder = encoder
    encoder.addFrame(bitmap)
    return try encoder.encode()
}

struct Row {
    var name: String
    /// What the peer script runs: `decode-<type>:FILE` or `encode-<type>:SETTING`.
    var peer: String
    var ours: () throws -> Void
}

var rows: [Row] = []
@MainActor func decodeRow(_ name: String, _ type: ImageType, _ data: Data, peer: String) throws {
    let path = try write(data, "photo-\(peer).\(type.fileExtension)")
    rows.append(Row(name: name, peer: "decode-\(peer):\(path)", ours: { _ = try ImageDecoder(data: data).frame(at: 0) }))
}

// Files to decode: written once by our encoders at the peers' settings.
try decodeRow("TIFF LZW decode", .tiff, encoded(encoder(.tiff), picture), peer: "tiff")
try decodeRow("JPEG 2000 lossy (43 dB) decode", .jpeg2000, encoded(encoder(.jpeg2000, quality: 0.9), picture), peer: "jp2")
try decodeRow("AVIF q75 decode", .avif, encoded(encoder(.avif, quality: 0.75), picture), peer: "avif")
try decodeRow("JPEG XL d1 decode", .jpegXL, encoded(encoder(.jpegXL, quality: 0.9), picture), peer: "jxl")
if let heifEnc = ["/usr/bin/heif-enc", "/opt/homebrew/bin/heif-enc"].first(where: FileManager.default.isExecutableFile(atPath:)) {
    let png = try write(try ImageEncoder.encode(picture, as: .png), "photo.png")
    let process = try Process.run(URL(fileURLWithPath: heifEnc), arguments: ["-q", "75", png, "-o", folder + "/photo.heic"])
    process.waitUntilExit()
    try decodeRow("HEIC q75 decode", .heic, Data(contentsOf: URL(fileURLWithPath: folder + "/photo.heic")), peer: "heic")
}
try decodeRow("ICNS 1024 set decode (largest)", .icns, encoded(encoder(.icns), icon), peer: "icns")

rows += [
    Row(name: "TIFF LZW encode", peer: "encode-tiff:lzw", ours: { _ = try encoded(encoder(.tiff), picture) }),
    Row(name: "JPEG 2000 lossless encode", peer: "encode-jp2-lossless:0", ours: { _ = try encoded(encoder(.jpeg2000, lossless: true), picture) }),
    Row(name: "JPEG 2000 lossy (43 dB) encode", peer: "encode-jp2-lossy:43", ours: { _ = try encoded(encoder(.jpeg2000, quality: 0.9), picture) }),
    Row(name: "AVIF q75 speed 6 encode", peer: "encode-avif:75", ours: { _ = try encoded(encoder(.avif, quality: 0.75), picture) }),
    Row(name: "JPEG XL d1 effort 7 encode", peer: "encode-jxl:1.0", ours: { _ = try encoded(encoder(.jpegXL, quality: 0.9), picture) }),
    Row(name: "ICNS from 1024 px (standard set) encode", peer: "encode-icns:0", ours: { _ = try encoded(encoder(.icns), icon) }),
]

let peers = try runPeerScript(
    python, script: "format_peers.py",
    [String(rounds), rawPath, String(picture.width), String(picture.height), iconPath]
        + rows.map { "\($0.name)=\($0.peer)" })
print(
    "A \(picture.width)×\(picture.height) photo (\(String(format: "%.1f", megapixels)) MP), milliseconds (lower is better), best of \(rounds); \(ProcessInfo.processInfo.activeProcessorCount) cores, each side with the threads its library uses by default."
)
print()
print("| row | ours | peer (same C library) | peer / ours (goal ≥ 1.0) |")
print("|---|---:|---:|---:|")
for row in rows {
    let ours = try measure(rounds: rounds, [("ours", row.ours)])["ours"]!
    let peer = peers[row.name]
    func ms(_ seconds: Double?) -> String { seconds.map { String(format: "%.1f", $0 * 1000) } ?? "—" }
    print("| \(row.name) | \(ms(ours)) | \(ms(peer)) | \(peer.map { String(format: "%.2fx", $0 / ours) } ?? "—") |")
}
