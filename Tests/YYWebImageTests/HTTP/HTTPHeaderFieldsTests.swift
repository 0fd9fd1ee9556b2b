import Testing

@testable import YYWebImage

/// Header names compare ignoring ASCII letter case only.
struct HTTPHeaderFieldsTests {
    @Test func namesMatchWhateverTheLetterCase() {
        let headers: HTTPHeaderFields = ["content-LENGTH": "12", "ETag": "\"a\"", "Cache-Control": "max-age=1", "cache-control": "no-cache"]
        #expect(headers["Content-Length"] == "12")
        #expect(headers["etag"] == "\"a\"")
        #expect(headers.values(for: "CACHE-CONTROL") == ["max-age=1", "no-cache"])
    }

    @Test func onlyLettersFoldTheirCase() {
        // '@' and '`', '[' and '{', '-' and '\r' differ by the case bit (0x20) but are no letters.
        #expect(!"@".caseInsensitiveEquals("`"))
        #expect(!"x[".caseInsensitiveEquals("x{"))
        #expect(!"a-b".caseInsensitiveEquals("a\rb"))
        #expect(!"Etag".caseInsensitiveEquals("Etags"))
        #expect("X-Cache-Key".caseInsensitiveEquals("x-cache-key"))
        #expect("é".caseInsensitiveEquals("é"))
        #expect(!"é".caseInsensitiveEquals("É"))
    }
}
