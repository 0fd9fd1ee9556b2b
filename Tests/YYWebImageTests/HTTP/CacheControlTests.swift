import Testing

@testable import YYWebImage

/// Cache-Control directives as a private cache reads them (RFC 9111 §5.2.2).
struct CacheControlTests {
    @Test func readsEachDirectiveWhateverItsCaseAndSpacing() {
        let control = CacheControl([" Max-Age = 60 ,NO-CACHE,\tmust-revalidate ", "no-store"].headers)
        #expect(control.maxAge == 60)
        #expect(control.noCache)
        #expect(control.mustRevalidate)
        #expect(control.noStore)
    }

    @Test func aQuotedMaxAgeCountsAndUnknownDirectivesAreIgnored() {
        let control = CacheControl(["private, max-age=\"120\", stale-while-revalidate=30, immutable"].headers)
        #expect(control == CacheControl(maxAge: 120))
    }

    @Test(arguments: [
        ("max-age=", 0), ("max-age=-5", 0), ("max-age=1e3", 0), ("max-age=abc", 0),
        ("max-age=99999999999999999999", Int(Int32.max)),
    ])
    func aMalformedMaxAgeIsStaleAndAHugeOneSaturates(field: String, maxAge: Int) {
        #expect(CacheControl([field].headers).maxAge == maxAge)
    }

    @Test func noFieldMeansNoDirective() {
        #expect(CacheControl(HTTPHeaderFields()) == CacheControl(maxAge: nil))
    }
}

extension Array where Element == String {
    /// One Cache-Control field per element.
    fileprivate var headers: HTTPHeaderFields { HTTPHeaderFields(map { HTTPHeaderFields.Field(name: "Cache-Control", value: $0) }) }
}

extension CacheControl {
    fileprivate init(maxAge: Int?) {
        self.init(HTTPHeaderFields())
        self.maxAge = maxAge
    }
}
