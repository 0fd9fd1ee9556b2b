/// GIF's variable-length LZW compression (codes up to 12 bits, a clear code when the table is
/// full), producing the code stream that `GIFWriter` splits into sub-blocks.
enum LZWEncoder {
    static func encode(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        let clearCode = 1 << minimumCodeSize
        let endCode = clearCode + 1
        var out: [UInt8] = []
        out.reserveCapacity(indices.count / 2)
        var bitBuffer: UInt32 = 0
        var bitCount = 0
        var codeSize = minimumCodeSize + 1
        func emit(_ code: Int) {
            bitBuffer |= UInt32(code) << UInt32(bitCount)
            bitCount += codeSize
            while bitCount >= 8 {
                out.append(UInt8(bitBuffer & 0xFF))
                bitBuffer >>= 8
                bitCount -= 8
            }
        }
        // table[prefix << 8 | byte] = code + 1 (0 = absent). Entries set since the last clear
        // are remembered so a clear resets only those.
        var table = [UInt16](repeating: 0, count: 4096 * 256)
        var used: [Int] = []
        used.reserveCapacity(4096)
        var nextCode = clearCode + 2
        emit(clearCode)
        guard var prefix = indices.first.map(Int.init) else {
            emit(endCode)
            if bitCount > 0 { out.append(UInt8(bitBuffer & 0xFF)) }
            return out
        }
        for byte in indices.dropFirst() {
            let key = prefix << 8 | Int(byte)
            let entry = table[key]
            if entry != 0 {
                prefix = Int(entry) - 1
                continue
            }
            emit(prefix)
            if nextCode < 4096 {
                table[key] = UInt16(nextCode + 1)
                used.append(key)
                nextCode += 1
                // The decoder widens its codes one entry later than the encoder adds them.
                if nextCode > 1 << codeSize && codeSize < 12 { codeSize += 1 }
            } else {
                emit(clearCode)
                for k in used { table[k] = 0 }
                used.removeAll(keepingCapacity: true)
                nextCode = clearCode + 2
                codeSize = minimumCodeSize + 1
            }
            prefix = Int(byte)
        }
        emit(prefix)
        emit(endCode)
        if bitCount > 0 { out.append(UInt8(bitBuffer & 0xFF)) }
        return out
    }
}
