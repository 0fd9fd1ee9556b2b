import Testing

@testable import YYImage

@Suite struct ImageMetadataSummaryTests {
    @Test func profileDescriptionsReadBothTagTypes() {
        // An ICC v4 `mluc` description: one record, "Hi" in UTF-16BE.
        var mluc: [UInt8] = Array("mluc".utf8) + [0, 0, 0, 0] + [0, 0, 0, 1] + [0, 0, 0, 12] + Array("enUS".utf8)
        mluc += [0, 0, 0, 4] + [0, 0, 0, 28] + [0, 0x48, 0, 0x69]
        var profile = [UInt8](repeating: 0, count: 128) + [0, 0, 0, 1] + Array("desc".utf8) + [0, 0, 0, 144] + [0, 0, 0, UInt8(mluc.count)]
        profile += mluc
        #expect(ImageMetadataSummary.profileDescription(profile) == "Hi")
        #expect(ImageMetadataSummary.profileDescription(Array(profile.prefix(140))) == nil)
        #expect(ImageMetadataSummary.profileDescription([]) == nil)
    }
}
