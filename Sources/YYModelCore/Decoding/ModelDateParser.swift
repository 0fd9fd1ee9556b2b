import Foundation

/// The date texts YYModel accepts, parsed by hand: no shared `DateFormatter` (whose thread safety
/// swift-corelibs does not promise), no locale, and fractions of any length (YYModel took only 0
/// or 3 digits, its issue #170).
///
/// - ISO 8601 family: `yyyy-MM-dd`, then optionally `T` or a space, `HH:mm:ss`, a fraction of any
///   length, and a zone `Z`, `±HH:mm`, `±HHmm` or `±HH`. No zone means UTC (YYModel used GMT).
///   This covers YYModel's lengths 10, 19, 20, 23, 24, 25, 28 and 29.
/// - Twitter/Weibo style (lengths 30 and 34): `EEE MMM dd HH:mm:ss[.SSS] Z yyyy`.
enum ModelDateParser {
    static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes in
            parseISO8601(bytes) ?? parseTwitter(bytes)
        }
    }

    private static func parseISO8601(_ s: UnsafeBufferPointer<UInt8>) -> Date? {
        var i = 0
        guard let year = digits(s, &i, 4), expect(s, &i, "-"), let month = digits(s, &i, 2), expect(s, &i, "-"),
            let day = digits(s, &i, 2)
        else { return nil }
        var hour = 0, minute = 0, second = 0
        var fraction = 0.0
        var offset = 0
        if i < s.count {
            guard s[i] == UInt8(ascii: "T") || s[i] == UInt8(ascii: " ") else { return nil }
            i += 1
            guard let h = digits(s, &i, 2), expect(s, &i, ":"), let m = digits(s, &i, 2), expect(s, &i, ":"),
                let sec = digits(s, &i, 2)
            else { return nil }
            (hour, minute, second) = (h, m, sec)
            if i < s.count, s[i] == UInt8(ascii: ".") {
                i += 1
                var scale = 0.1
                let start = i
                while i < s.count, isDigit(s[i]) {
                    fraction += Double(s[i] - UInt8(ascii: "0")) * scale
                    scale /= 10
                    i += 1
                }
                if i == start { return nil }
            }
            if i < s.count {
                guard let zone = parseZone(s, &i) else { return nil }
                offset = zone
            }
        }
        guard i == s.count else { return nil }
        return makeDate(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second,
            fraction: fraction, offset: offset)
    }

    /// `Fri Sep 04 00:12:21 +0800 2015` or `Fri Sep 04 00:12:21.000 +0800 2015`.
    private static func parseTwitter(_ s: UnsafeBufferPointer<UInt8>) -> Date? {
        guard s.count == 30 || s.count == 34 else { return nil }
        var i = 4  // the weekday name is not needed
        guard s[3] == UInt8(ascii: " ") else { return nil }
        let monthName = String(decoding: UnsafeBufferPointer(rebasing: s[4..<7]), as: UTF8.self)
        guard let month = months.firstIndex(of: monthName).map({ $0 + 1 }) else { return nil }
        i = 7
        guard expect(s, &i, " "), let day = digits(s, &i, 2), expect(s, &i, " "), let hour = digits(s, &i, 2),
            expect(s, &i, ":"), let minute = digits(s, &i, 2), expect(s, &i, ":"), let second = digits(s, &i, 2)
        else { return nil }
        var fraction = 0.0
        if s.count == 34 {
            guard expect(s, &i, "."), let millis = digits(s, &i, 3) else { return nil }
            fraction = Double(millis) / 1000
        }
        guard expect(s, &i, " "), let offset = parseZone(s, &i), expect(s, &i, " "), let year = digits(s, &i, 4),
            i == s.count
        else { return nil }
        return makeDate(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second,
            fraction: fraction, offset: offset)
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Z`, `±HH:mm`, `±HHmm` or `±HH`, as seconds east of UTC.
    private static func parseZone(_ s: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Int? {
        guard i < s.count else { return nil }
        if s[i] == UInt8(ascii: "Z") {
            i += 1
            return 0
        }
        guard s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") else { return nil }
        let sign = s[i] == UInt8(ascii: "-") ? -1 : 1
        i += 1
        guard let hours = digits(s, &i, 2) else { return nil }
        var minutes = 0
        if i < s.count, s[i] == UInt8(ascii: ":") { i += 1 }
        if i + 1 < s.count, isDigit(s[i]), isDigit(s[i + 1]) {
            minutes = digits(s, &i, 2)!
        }
        guard hours <= 23, minutes <= 59 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

    private static func makeDate(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
        fraction: Double, offset: Int
    ) -> Date? {
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func digits(_ s: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ count: Int) -> Int? {
        guard i + count <= s.count else { return nil }
        var value = 0
        for k in 0..<count {
            guard isDigit(s[i + k]) else { return nil }
            value = value * 10 + Int(s[i + k] - UInt8(ascii: "0"))
        }
        i += count
        return value
    }

    private static func expect(_ s: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ character: Unicode.Scalar) -> Bool {
        guard i < s.count, s[i] == UInt8(character.value) else { return false }
        i += 1
        return true
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// The dates ``string(from:)`` writes, in seconds since 1970: 0001-01-01 to 9999-12-31,
    /// four-digit years (NaN and the infinities are outside, and so never reach the arithmetic).
    static let writableRange: ClosedRange<Double> = -62_135_596_800...253_402_300_799.999

    /// `yyyy-MM-dd'T'HH:mm:ssZ` in UTC, with milliseconds when the date has them: what the
    /// encoder writes (YYModel wrote the device's zone; UTC reads the same everywhere). The
    /// date must be in ``writableRange``.
    static func string(from date: Date) -> String {
        assert(writableRange.contains(date.timeIntervalSince1970), "\(date.timeIntervalSince1970) s since 1970 is outside the writable range")
        let totalMilliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        var seconds = Int((totalMilliseconds / 1000).rounded(.down))
        let milliseconds = Int(totalMilliseconds) - seconds * 1000
        var days = seconds / 86_400
        seconds -= days * 86_400
        if seconds < 0 { seconds += 86_400; days -= 1 }
        let (year, month, day) = civilFromDays(days)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
        if milliseconds != 0 { text += "." + pad(milliseconds, 3) }
        return text + "Z"
    }

    private static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp + (mp < 10 ? 3 : -9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
