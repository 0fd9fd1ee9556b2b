import Testing

@testable import YYImageService

/// imgproxy's signatures: its documented example, rotation, truncation and the comparison.
@Suite struct URLSignatureTests {
    /// imgproxy's documentation: key `secret`, salt `hello`.
    private let documented = URLSignature(keyPairs: [URLSignature.KeyPair(hexKey: "736563726574", hexSalt: "68656C6C6F")!])
    private let documentedPath = "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"

    @Test func imgproxysDocumentedExampleGivesItsDocumentedSignature() {
        #expect(documented.signature(for: documentedPath) == "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8")
        #expect(documented.isValid("oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", for: documentedPath))
    }

    @Test func aSignatureOfAnotherPathOrAChangedCharacterIsRefused() {
        #expect(!documented.isValid("oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", for: documentedPath + "x"))
        #expect(!documented.isValid("pKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", for: documentedPath))
        #expect(!documented.isValid("oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH", for: documentedPath))
        #expect(!documented.isValid("insecure", for: documentedPath))
        #expect(!documented.isValid("", for: documentedPath))
        #expect(!documented.isValid("not base64 at all!", for: documentedPath))
    }

    @Test func everyConfiguredPairIsAcceptedAndTheFirstSigns() {
        let old = URLSignature.KeyPair(hexKey: "736563726574", hexSalt: "68656C6C6F")!
        let new = URLSignature.KeyPair(hexKey: "0123456789abcdef", hexSalt: "fedcba98")!
        let rotating = URLSignature(keyPairs: [new, old])
        let byOld = documented.signature(for: documentedPath)
        let byNew = URLSignature(keyPairs: [new]).signature(for: documentedPath)
        #expect(byOld != byNew)
        #expect(rotating.isValid(byOld, for: documentedPath))
        #expect(rotating.isValid(byNew, for: documentedPath))
        #expect(rotating.signature(for: documentedPath) == byNew)
        #expect(!URLSignature(keyPairs: [new]).isValid(byOld, for: documentedPath))
    }

    @Test func aTruncatedSignatureCarriesTheFirstBytesAndOnlyThatLengthIsAccepted() throws {
        let short = URLSignature(keyPairs: documented.keyPairs, size: 8)
        let signature = short.signature(for: documentedPath)
        #expect(signature.count == 11)  // 8 bytes in unpadded base64
        let full = try #require([UInt8](base64URL: "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8"))
        #expect([UInt8](base64URL: signature) == Array(full.prefix(8)))
        #expect(short.isValid(signature, for: documentedPath))
        #expect(!short.isValid("oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", for: documentedPath))
        #expect(!documented.isValid(signature, for: documentedPath))
    }

    @Test func keysAndSaltsMustBeNonEmptyHexadecimal() {
        #expect(URLSignature.KeyPair(hexKey: "", hexSalt: "00") == nil)
        #expect(URLSignature.KeyPair(hexKey: "abc", hexSalt: "00") == nil)
        #expect(URLSignature.KeyPair(hexKey: "zz", hexSalt: "00") == nil)
        #expect(URLSignature.KeyPair(hexKey: "AbCd", hexSalt: "00")?.key == [0xAB, 0xCD])
    }

    @Test func theComparisonLooksAtEveryByteAndWantsEqualLengths() {
        #expect(URLSignature.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!URLSignature.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!URLSignature.constantTimeEqual([0, 2, 3], [1, 2, 3]))
        #expect(!URLSignature.constantTimeEqual([1, 2], [1, 2, 3]))
        #expect(URLSignature.constantTimeEqual([], []))
    }
}
