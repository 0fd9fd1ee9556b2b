import Foundation
import YYDispatch

// The Foundation and standard-library extensions YYCache's own code uses, kept in one place.

extension Date {
    /// The date `milliseconds` after 1970-01-01 00:00 UTC (the disk manifest's unit).
    init(milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}

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

extension Duration {
    /// The duration in whole nanoseconds, clamped to `0...UInt64.max`. Written out here rather
    /// than through YYDispatch's `saturatingNanoseconds`: the memory cache's public inlinable
    /// `setValue` calls it, and inlinable code may call only public or inlinable declarations.
    @inlinable var clampedNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        if seconds < 0 { return 0 }
        let (wholeSeconds, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        let (total, carried) = wholeSeconds.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return carried ? .max : total
    }

    /// The duration in whole milliseconds, clamped to `0...Int64.max`.
    var clampedMilliseconds: Int64 { max(0, saturatingMilliseconds) }
}

extension Dictionary where Value == Int {
    /// Counts one less for `key`, dropping it at zero.
    mutating func decrement(_ key: Key) {
        if let count = self[key], count > 1 { self[key] = count - 1 } else { self[key] = nil }
    }
}
