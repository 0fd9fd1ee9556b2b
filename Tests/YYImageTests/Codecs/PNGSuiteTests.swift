import Foundation
import Testing

@testable import YYImage

/// PngSuite (Willem van Schaik's conformance images, shipped in Debian's golang-1.N-src) decodes
/// to exactly what libpng's own simplified API gives, for every file: YYImage returns the stored
/// samples (no gamma conversion, like Pillow and browsers without colour management), so the
/// reference reads each file with its colour-space chunks replaced by an sRGB gAMA, for which
/// the simplified API converts nothing. 16-bit samples round to 8 bits as libpng does.
@Suite(.enabled(if: PNGSuite.isAvailable, Comment(rawValue: PNGSuite.missingReason)))
struct PNGSuiteTests {
    @Test func everyPngSuiteImageEqualsLibpngDecoding() throws {
        var compared = 0
        for url in PNGSuite.files {
            let data = try Data(contentsOf: url)
            guard let reference = LibPNGReference.decodeStoredSamples(data) else {
                // libpng refuses it: so must we.
                #expect(throws: ImageError.self, "\(url.lastPathComponent)") { try ImageDecoder(data: data).frame(at: 0) }
                continue
            }
            let frame = try ImageDecoder(data: data).frame(at: 0)
            let difference = maxChannelDifference(frame, reference)
            #expect(difference == 0, "\(url.lastPathComponent): max channel difference \(difference)")
            compared += 1
        }
        #expect(compared >= 30)
    }
}

/// Where PngSuite lives on Debian: in Go's sources, `/usr/share/go-1.N/src/…`, whichever Go
/// release the system has (1.19 on Debian 12; the newest is taken).
enum PNGSuite {
    static let folder: String = {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/share")) ?? []
        let newest = versions.filter { $0.hasPrefix("go-1.") }
            .max { $0.dropFirst(5).compare($1.dropFirst(5), options: .numeric) == .orderedAscending }
        return "/usr/share/\(newest ?? "go-1.19")/src/image/png/testdata/pngsuite"
    }()
    static var isAvailable: Bool { FileManager.default.fileExists(atPath: folder) }
    static let missingReason = "PngSuite is absent: run scripts/setup --reference (Debian package golang-1.N-src)"
    static var files: [URL] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".png") }.sorted()
            .map { URL(fileURLWithPath: folder).appendingPathComponent($0) }
    }
}
