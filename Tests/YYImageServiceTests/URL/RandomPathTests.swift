import TestSupport
import Testing

@testable import YYImageService

/// Paths made at random from the characters that matter to the parser: whatever comes, the URL
/// and option parsers answer with a value or a 400/422, never a crash or a hang.
@Suite struct RandomPathTests {
    private static let pieces = [
        "/", ":", "%", "@", ".", "plain", "rs", "fill", "fit", "w", "h", "g", "fp", "sm", "c", "pr", "default", "q", "fq",
        "bg", "0", "1", "-1", "9999999999999999999", "0.5", "nan", "inf", "%2F", "%zz", "aHR0cDovL2E", "==", "local://", "..",
        "\u{0}", "é", " ", "ext", "mb", "t", "rot", "90", "45", "ex", "el", "dpr", "8", "avif", "webp",
    ]

    @Test func randomPathsGetAValueOrAClientErrorNeverACrash() {
        var random = SplitMix64(seed: 0x5E_47E)
        let parser = OptionParser(presets: ["default": ["q:70"], "p": ["pr:p"], "a": ["w:10"]], maxResultSide: 8192)
        var parsed = 0
        for _ in 0..<20_000 {
            let count = Int(random.next() % 24) + 1
            let path = "/" + (0..<count).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }.joined()
            do {
                let url = try ProcessingURL(path: path)
                _ = try parser.parse(url.optionSegments)
                _ = try url.extensionFormat()
                parsed += 1
            } catch {
                #expect(error.status == 400 || error.status == 422, "\(path): \(error)")
            }
        }
        #expect(parsed > 0)
    }
}
