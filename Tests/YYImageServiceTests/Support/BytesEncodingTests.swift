import Foundation
import Testing

@testable import YYImageService

/// The byte encodings the service writes into keys and headers.
@Suite struct BytesEncodingTests {
    @Test func hexEncodingIsLowerCaseTwoDigitsAByteAsStringFormatWritesIt() {
        let bytes: [UInt8] = [0x00, 0x0f, 0xa5, 0xff, 0x10]
        #expect(bytes.hexEncoded == "000fa5ff10")
        let all = (0...255).map(UInt8.init)
        #expect(all.hexEncoded == all.map { String(format: "%02x", $0) }.joined())
        #expect([UInt8](hex: all.hexEncoded) == all)
        #expect([UInt8]().hexEncoded == "")
    }
}
