import Testing

@testable import YYImageService

/// `--allowed-source` prefixes are matched as parsed URLs, not as text.
@Suite struct SourceAllowListTests {
    private func list(_ prefixes: String...) throws -> SourceAllowList { try SourceAllowList(prefixes: prefixes) }

    @Test func aPrefixWithoutItsSlashDoesNotLetUserInfoNameAnotherHost() throws {
        let allowed = try list("http://127.0.0.1:8080")
        #expect(allowed.allows("http://127.0.0.1:8080/cat.jpg"))
        #expect(!allowed.allows("http://127.0.0.1:8080@other-host/cat.jpg"))
        #expect(!allowed.allows("http://127.0.0.1:8080.other-host/cat.jpg"))
    }

    @Test func schemeHostAndPortMustBeEqualTheDefaultPortIncluded() throws {
        let allowed = try list("http://images.example.com/")
        #expect(allowed.allows("http://IMAGES.example.com:80/a.jpg"))
        #expect(!allowed.allows("https://images.example.com/a.jpg"))
        #expect(!allowed.allows("http://images.example.com:8081/a.jpg"))
        #expect(!allowed.allows("http://images.example.com.evil.test/a.jpg"))
        #expect(try list("https://[2001:db8::1]/").allows("https://[2001:DB8::1]:443/a.jpg"))
    }

    @Test func thePathMatchesOnSegmentBoundaries() throws {
        let allowed = try list("http://a.example/img")
        #expect(allowed.allows("http://a.example/img/x.jpg"))
        #expect(allowed.allows("http://a.example/img"))
        #expect(!allowed.allows("http://a.example/imgs/x.jpg"))
        #expect(!allowed.allows("http://a.example/x.jpg"))
        #expect(try list("http://a.example/img/").allows("http://a.example/img/x.jpg"))
    }

    @Test func localPrefixesAreFoldersUnderTheRoot() throws {
        let allowed = try list("local:///photos")
        #expect(allowed.allows("local:///photos/a b.jpg"))
        #expect(!allowed.allows("local:///photosx/a.jpg"))
        #expect(!allowed.allows("http://a.example/photos/a.jpg"))
    }

    @Test func userInfoIsRefusedWithOrWithoutAList() throws {
        #expect(!SourceAllowList.everySource.allows("http://user:secret@a.example/a.jpg"))
        #expect(!SourceAllowList.everySource.allows("http://user@a.example/a.jpg"))
        #expect(SourceAllowList.everySource.allows("http://a.example/a.jpg"))
        #expect(SourceAllowList.everySource.allows("local:///a b.jpg"))
    }

    @Test(arguments: ["images.example.com", "ftp://a.example/", "http://user@a.example/", "http:///path"])
    func aPrefixThatIsNoURLStopsTheServiceFromStarting(prefix: String) {
        #expect(throws: UnreadableAllowedSource(prefix: prefix)) { try SourceAllowList(prefixes: [prefix]) }
    }
}
