import Foundation
import TestSupport
import Testing
import YYCache
import YYImage

@testable import YYImageService

/// The result cache's stored form: the entity tag travels with the image through every level, and
/// a stored value that is not a result is replaced rather than served.
struct ResultCacheTests {
    static let image = TestImages.png()

    @Test func aStoredResultKeepsItsTagTypeAndImageAndTheTagIsTheImagesHash() throws {
        let result = StoredResult(image: Data(Self.image), type: .png)
        let read = try #require(StoredResult(stored: result.stored))
        #expect(read == result && read.type == .png)
        #expect(result.etag == "\"" + SHA256Digest.of(Data(Self.image)).base64URLEncoded + "\"")
        // The type is the one given, never sniffed from the bytes.
        for type in OutputFormat.servable {
            #expect(StoredResult(stored: StoredResult(image: Data(Self.image), type: type).stored)?.type == type)
        }
        // A slice of a larger buffer (as a read may hand back) reads the same.
        let padded = Data([1, 2, 3]) + result.stored
        #expect(StoredResult(stored: padded[3...]) == result)
    }

    @Test(
        arguments: [
            [], [0], [5, 0x22, 0x61], [3, 0x22, 0x61, 0x22], [2, 0xFF, 0xFE, 0x89], [2, 0x22, 0x22, 3, 0x70, 0x6E, 0x67],
            [2, 0x22, 0x22, 3, 0x78, 0x79, 0x7A, 0x89], [2, 0x22, 0x22, 0],
        ] as [[UInt8]])
    func bytesThatAreNotAStoredResultAreRefused(bytes: [UInt8]) {
        #expect(StoredResult(stored: Data(bytes)) == nil)
    }

    @Test func aHitFromEveryLevelAnswersWithTheTagOfTheComputedResult() async throws {
        let folder = TemporaryDirectory("result-cache")
        let results = ResultCache(cache: try Cache<Data>(path: folder.path), timeToLive: .seconds(60), fillLockTimeToLive: .seconds(5))
        let computed = try await results.result(forKey: "k") { ImageRenderer.Output(data: Data(Self.image), type: .png) }
        let memory = try await results.result(forKey: "k") { () throws(ServiceError) -> ImageRenderer.Output in throw ServiceError.internalError }
        results.cache?.memoryCache.removeAll()
        let disk = try await results.result(forKey: "k") { () throws(ServiceError) -> ImageRenderer.Output in throw ServiceError.internalError }
        #expect(computed.level == .computed && memory.level == .memory && disk.level == .disk)
        #expect(memory.result == computed.result && disk.result == computed.result)
    }

    @Test func aDamagedStoredValueIsReplacedByAComputedResult() async throws {
        let folder = TemporaryDirectory("result-cache")
        let cache = try Cache<Data>(path: folder.path)
        try await cache.setValue(Data([9, 9, 9]), forKey: "k")
        let results = ResultCache(cache: cache, timeToLive: .seconds(60), fillLockTimeToLive: .seconds(5))
        let lookup = try await results.result(forKey: "k") { ImageRenderer.Output(data: Data(Self.image), type: .png) }
        #expect(lookup.level == .computed && lookup.result.image == Data(Self.image))
        #expect(try await cache.value(forKey: "k") == nil)
    }

    /// Result keys from stable spellings: a renamed enum case or a reordered option must not
    /// change them silently (every cached result would be computed again, or worse, a changed
    /// meaning would keep an old result). A change here is deliberate: bump `result:vN`.
    @Test(arguments: [
        ("rs:fit:512:512", "rt=fit/w=512/h=512/dpr=1.0/el=false/ex=false:centre/g=centre/rot=0/ar=true/bg=-/bl=0.0/sh=0.0/q=0/sm=true/mb=0"),
        (
            "rs:fill:300:200:1:1:nowe/g:soea/bl:0.2/q:70/fq:webp:50:avif:40",
            "rt=fill/w=300/h=200/dpr=1.0/el=true/ex=true:northwest/g=southeast/rot=0/ar=true/bg=-/bl=0.2/sh=0.0/q=70/fq=avif:40:webp:50/sm=true/mb=0"
        ),
        (
            "g:fp:0.25:0.75/c:100:50:sm/t:10/rot:-90/bg:ff000080/dpr:2/cb:x",
            "rt=fit/w=0/h=0/dpr=2.0/el=false/ex=false:centre/g=fp:0.25:0.75/c=100.0:50.0:attention/t=10/rot=270/ar=true/bg=ff000080/bl=0.0/sh=0.0/q=0/sm=true/mb=0/cb=x"
        ),
        (
            "z:2/mw:10/fl:1/exar:1:no/pd:1:2/pix:4/fn:x/att:1/exp:0",
            "rt=fit/w=0/h=0/dpr=1.0/el=false/ex=false:centre/g=centre/rot=0/ar=true/bg=-/bl=0.0/sh=0.0/q=0/sm=true/mb=0/z=2.0:2.0/min=10:0/fl=true:false/exar=north/pd=1:2:1:2/pix=4"
        ),
        (
            "g:ea/sh:1.5/sm:0/mb:1000/ar:0",
            "rt=fit/w=0/h=0/dpr=1.0/el=false/ex=false:centre/g=east/rot=0/ar=false/bg=-/bl=0.0/sh=1.5/q=0/sm=false/mb=1000"
        ),
    ])
    func optionsGiveTheirPinnedCacheKey(options: String, key: String) throws {
        let parsed = try OptionParser(presets: [:], maxResultSide: 8192).parse(options.split(separator: "/").map(String.init))
        #expect(parsed.cacheKey == key)
    }

    @Test func aResultKeyIsTheVersionedHashOfSourceOptionsAndFormatChoice() throws {
        let options = try OptionParser(presets: [:], maxResultSide: 8192).parse(["rs:fit:512:512"])
        let key = ResultCache.key(source: "local:///x.jpg", options: options, choice: .negotiated([.avif]))
        let name = "local:///x.jpg\n" + options.cacheKey + "\naccept=avif,-"
        #expect(key == "result:v3:" + SHA256Digest.of(Array(name.utf8)).map { String(format: "%02x", $0) }.joined())
        #expect(key != ResultCache.key(source: "local:///x.jpg", options: options, choice: .named(.avif)))
    }
}
