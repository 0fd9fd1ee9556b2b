/// GIF's variable-length LZW decompression.
///
/// Reads codes from the image's data sub-blocks and writes palette indices into `output` until
/// it is full, the end code arrives or the data runs out. Damaged streams (an impossible code)
/// stop decoding; what was written stays, the rest keeps its initial value.
struct LZWDecoder {
    /// The largest code GIF allows (12-bit codes).
    private static let maxCodes = 4096

    /// Decodes into `output`; returns the number of indices written.
    /// - Parameters:
    ///   - minimumCodeSize: the byte before the sub-blocks (2...8; 1 is accepted for bilevel images).
    ///   - blocks: the concatenated sub-block payloads.
    static func decode(minimumCodeSize: Int, blocks: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        guard (1...11).contains(minimumCodeSize), output.count > 0 else { return 0 }
        let clearCode = 1 << minimumCodeSize
        let endCode = clearCode + 1
        // The string for code c is: string(prefix[c]) + suffix[c]; `length` caches its length
        // and `first` its first byte, so a string is written backwards in one pass.
        var prefix = [UInt16](repeating: 0, count: maxCodes)
        var suffix = [UInt8](repeating: 0, count: maxCodes)
        var first = [UInt8](repeating: 0, count: maxCodes)
        var length = [UInt16](repeating: 0, count: maxCodes)
        for code in 0..<clearCode {
            suffix[code] = UInt8(truncatingIfNeeded: code)
            first[code] = UInt8(truncatingIfNeeded: code)
            length[code] = 1
        }
        return prefix.withUnsafeMutableBufferPointer { prefix in
            suffix.withUnsafeMutableBufferPointer { suffix in
                first.withUnsafeMutableBufferPointer { first in
                    length.withUnsafeMutableBufferPointer { length in
                        var codeSize = minimumCodeSize + 1
                        var nextCode = clearCode + 2
                        var previous = -1
                        var bitBuffer: UInt32 = 0
                        var bitCount = 0
                        var input = 0
                        var written = 0
                        let capacity = output.count
                        while written < capacity {
                            // Refill: codes are at most 12 bits, LSB first.
                            while bitCount < codeSize {
                                guard input < blocks.count else { return written }
                                bitBuffer |= UInt32(blocks[input]) << UInt32(bitCount)
                                input += 1
                                bitCount += 8
                            }
                            let code = Int(bitBuffer & ((1 << UInt32(codeSize)) - 1))
                            bitBuffer >>= UInt32(codeSize)
                            bitCount -= codeSize

                            if code == clearCode {
                                codeSize = minimumCodeSize + 1
                                nextCode = clearCode + 2
                                previous = -1
                                continue
                            }
                            if code == endCode { return written }
                            guard previous >= 0 else {
                                // The first code after a clear must be a literal.
                                guard code < clearCode else { return written }
                                output[written] = UInt8(truncatingIfNeeded: code)
                                written += 1
                                previous = code
                                continue
                            }
                            let emitted: Int  // the code whose string is written
                            var extra: UInt8? = nil  // the KwKwK case appends first(previous)
                            if code < nextCode {
                                emitted = code
                            } else if code == nextCode {
                                emitted = previous
                                extra = first[previous]
                            } else {
                                return written  // a code that does not exist yet: damaged data
                            }
                            // Write string(emitted) backwards, clipped to the output.
                            let stringLength = Int(length[emitted])
                            var position = written + stringLength - 1
                            var c = emitted
                            while true {
                                if position < capacity { output[position] = suffix[c] }
                                if position == written { break }
                                position -= 1
                                c = Int(prefix[c])
                            }
                            written = min(capacity, written + stringLength)
                            if let extra, written < capacity {
                                output[written] = extra
                                written += 1
                            }
                            if nextCode < maxCodes {
                                prefix[nextCode] = UInt16(previous)
                                suffix[nextCode] = first[code < nextCode ? code : previous]
                                first[nextCode] = first[previous]
                                length[nextCode] = length[previous] + 1
                                nextCode += 1
                                if nextCode == 1 << codeSize && codeSize < 12 { codeSize += 1 }
                            }
                            previous = code
                        }
                        return written
                    }
                }
            }
        }
    }
}
