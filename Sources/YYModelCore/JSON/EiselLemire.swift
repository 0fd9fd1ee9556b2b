extension JSONParser {
    /// The correctly rounded `Double` of `w × 10^q` (`w` exact, at most 19 digits), by the
    /// Eisel-Lemire algorithm in fast_float's formulation: one or two 64×128-bit multiplications
    /// by a table of powers of five, then rounding to nearest even. `nil` in the rare case the
    /// product cannot decide the rounding; the caller then uses `strtod`.
    static func eiselLemire(_ w: UInt64, _ q: Int) -> Double? {
        if w == 0 || q < -342 { return 0 }  // below half the smallest subnormal
        if q > 308 { return .infinity }
        let leadingZeros = w.leadingZeroBitCount
        let normalized = w << UInt64(leadingZeros)
        let index = 2 * (q + 342)
        var (high, low) = normalized.multipliedFullWidth(by: powersOfFive[index])
        // 55 bits of precision are needed (52 + 3); refine with the table's low word only when the
        // bits below them are all ones, where a carry could still change them.
        let precisionMask: UInt64 = 0x1FF
        if high & precisionMask == precisionMask {
            let (secondHigh, _) = normalized.multipliedFullWidth(by: powersOfFive[index + 1])
            let (sum, carry) = low.addingReportingOverflow(secondHigh)
            low = sum
            if carry { high &+= 1 }
        }
        // Outside these exponents a product this close to a boundary could be off by one.
        if low == .max && !(-27...55).contains(q) { return nil }
        let upperBit = Int(high >> 63)
        let shift = UInt64(upperBit + 9)
        var mantissa = high >> shift
        var power2 = ((((152_170 + 65_536) * q) >> 16) + 63) + upperBit - leadingZeros + 1023
        if power2 <= 0 {
            // Subnormal.
            if -power2 + 1 >= 64 { return 0 }
            mantissa >>= UInt64(-power2 + 1)
            mantissa += mantissa & 1
            mantissa >>= 1
            power2 = mantissa < (1 << 52) ? 0 : 1
            return Double(bitPattern: UInt64(power2) << 52 | (mantissa & ((1 << 52) - 1)))
        }
        // Exactly halfway between two doubles: round to even instead of up.
        if low <= 1, (-4...23).contains(q), mantissa & 3 == 1, mantissa << shift == high {
            mantissa &= ~1
        }
        mantissa += mantissa & 1
        mantissa >>= 1
        if mantissa >= (2 << 52) {
            mantissa = 1 << 52
            power2 += 1
        }
        mantissa &= ~(1 << 52)
        if power2 >= 0x7FF { return .infinity }
        return Double(bitPattern: UInt64(power2) << 52 | mantissa)
    }
}
