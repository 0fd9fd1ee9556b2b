import Testing

@testable import YYImageService

/// Both of imgproxy's URL forms taken apart.
@Suite struct ProcessingURLTests {
    @Test func theBase64FormMaySplitItsSourceBySlashesAndEndsWithTheExtension() throws {
        let url = try ProcessingURL(path: "/sig/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png")
        #expect(url.signature == "sig")
        #expect(url.signedPath == "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png")
        #expect(url.optionSegments == ["rs:fill:300:400:0", "g:sm"])
        #expect(url.source == "http://example.com/images/curiosity.jpg")
        #expect(url.fileExtension == "png")
    }

    @Test func thePlainFormIsPercentDecodedAndTakesTheExtensionAfterTheLastAt() throws {
        let url = try ProcessingURL(path: "/insecure/w:100/plain/http%3A%2F%2Fexample.com%2Fa%20b.jpg%3Fv%3D1@webp")
        #expect(url.source == "http://example.com/a b.jpg?v=1")
        #expect(url.fileExtension == "webp")
        #expect(url.optionSegments == ["w:100"])
        let unencoded = try ProcessingURL(path: "/insecure/plain/http://example.com/images/curiosity.jpg")
        #expect(unencoded.source == "http://example.com/images/curiosity.jpg")
        #expect(unencoded.fileExtension == nil)
        #expect(unencoded.optionSegments.isEmpty)
    }

    @Test(arguments: [
        "/", "/sig", "/sig/", "/sig/rs:fit:1:1", "/sig/plain/", "/sig/!!!notbase64", "/sig/plain/%zz",
        "/sig/" + String(repeating: "a", count: 9000),
    ])
    func aPathWithoutAReadableSourceIsABadRequest(path: String) {
        #expect(throws: ServiceError.self) { try ProcessingURL(path: path) }
        #expect((try? ProcessingURL(path: path)) == nil)
        do { _ = try ProcessingURL(path: path) } catch { #expect(error.status == 400) }
    }

    @Test func anExtensionThatIsNoOutputFormatIsABadRequest() throws {
        let url = try ProcessingURL(path: "/s/plain/local:///a.jpg@exe")
        #expect(throws: ServiceError.badRequest("extension 'exe' is not an output format")) { try url.extensionFormat() }
        #expect(try ProcessingURL(path: "/s/plain/local:///a.jpg@JPG").extensionFormat() == .jpeg)
    }
}
