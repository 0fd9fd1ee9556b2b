// libFuzzer entry for YYImageService's request-path parsers: the URL forms, the processing
// options (presets included) and the signature check, which read whatever a client sends. Every
// input must give a parsed URL or a client error (400, 403 for a security option, 404 for an
// expired URL, or 422), never trap or hang, and:
// - the options plan a render (or a typed error) for a source before decoding and for a small
//   first frame;
// - a source parsed from one form parses the same from the other (plain and base64);
// - a path signed by a key pair is valid for it, and invalid with a changed signature.
// Needs `-enable-testing` (the parsers are internal).
import Foundation
import FuzzDriver
import YYImage

@testable import YYImageService

@main
enum URLFuzzer {
    static func main() { exit(runFuzzer(testOneInput)) }
}

private let parser = OptionParser(
    presets: ["default": ["q:70"], "small": ["rs:fit:64:64"], "loop": ["pr:loop"], "nested": ["pr:small", "bg:fff"]],
    maxResultSide: 8192)
private let frame = Bitmap(filledWith: RGBA(10, 20, 30), width: 12, height: 8)
private let signature = URLSignature(keyPairs: [.init(key: Array("secret".utf8), salt: Array("hello".utf8))], size: 8)

/// `url`'s options and source, written again in the other form.
private func otherForm(of url: ProcessingURL) -> String? {
    let options = url.optionSegments.map { "/" + $0 }.joined()
    if url.signedPath.dropFirst(options.utf8.count).hasPrefix("/plain/") {
        let encoded = Array(url.source.utf8).base64URLEncoded
        // "plain" would be read as the other form's marker; an extension with a dot splits elsewhere.
        guard encoded != "plain", url.fileExtension?.contains(".") != true else { return nil }
        return "/sig" + options + "/" + encoded + (url.fileExtension.map { "." + $0 } ?? "")
    }
    guard let encoded = url.source.addingPercentEncoding(withAllowedCharacters: .alphanumerics),
        url.fileExtension?.contains("@") != true
    else { return nil }
    return "/sig" + options + "/plain/" + encoded + (url.fileExtension.map { "@" + $0 } ?? "")
}

private func fuzzPath(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let path = "/" + String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let url: ProcessingURL
    let options: ProcessingOptions
    do {
        url = try ProcessingURL(path: path)
        options = try parser.parse(url.optionSegments)
        _ = try url.extensionFormat()
    } catch {
        precondition([400, 403, 404, 422].contains(error.status.code), "a parser error that is not a client error: \(error)")
        return 0
    }
    // Planning is arithmetic on the options: it may refuse, never trap.
    if let plan = try? RenderPlan(beforeDecoding: options, sourceSize: (6000, 4000), outputType: .webp) {
        // A decoder that decodes smaller (JPEG) and one that averages blocks as it reads (PNG).
        _ = plan.shrinkOnLoad(of: .jpeg, reducingGap: 2)
        _ = plan.shrinkOnLoad(of: .png, reducingGap: 2)
    }
    _ = try? RenderPlan(options: options, frame: frame, outputType: .jpeg)
    if let other = otherForm(of: url), let again = try? ProcessingURL(path: other) {
        precondition(again.source == url.source && again.optionSegments == url.optionSegments, "the two forms disagree on \(other)")
        precondition(again.fileExtension == url.fileExtension, "the two forms disagree on the extension of \(other)")
    }
    let signed = signature.signature(for: url.signedPath)
    precondition(signature.isValid(signed, for: url.signedPath), "a signed path is not valid")
    precondition(!signature.isValid(String(signed.reversed()) + "x", for: url.signedPath), "a changed signature is valid")
    return 0
}

private func testOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data else { return 0 }
    return fuzzPath(data, count)
}
