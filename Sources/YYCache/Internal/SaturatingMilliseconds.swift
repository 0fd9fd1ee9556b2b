import Foundation

extension Int64 {
    /// `value` rounded toward zero and brought within `Int64`'s range; NaN is 0.
    ///
    /// Times come as `Double` from dates other code made (a custom `SharedCacheTier`'s expiry, a
    /// date set on an entry): one far beyond any clock, or infinite, must saturate, not trap the
    /// conversion to milliseconds.
    init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 0x1p63 {  // Int64.max as a Double rounds up to 2^63, itself out of range
            self = .max
        } else if value < -0x1p63 {
            self = .min
        } else {
            self.init(value)
        }
    }
}
