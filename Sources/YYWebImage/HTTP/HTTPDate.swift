package import Foundation

/// HTTP dates (RFC 9110 §5.6.7): the IMF-fixdate everyone sends, and the two obsolete forms a
/// recipient must accept. Split by hand (`DateFormatter` is not `Sendable`), put together by a
/// Gregorian calendar in GMT.
package enum HTTPDate {
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar
    }()

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date, or `nil` for text in none of the three forms.
    package static func parse(_ text: String) -> Date? {
        // Split on spaces, commas, dashes and colons: every form becomes its numbers and names.
        let parts = text.split { $0 == " " || $0 == "," || $0 == "-" || $0 == ":" }.map(String.init)
        let fields: (day: Int?, month: String, year: Int?, time: ArraySlice<String>)
        switch parts.count {
        case 8 where parts[7].uppercased() == "GMT":
            // "Sun, 06 Nov 1994 08:49:37 GMT" or "Sunday, 06-Nov-94 08:49:37 GMT"
            fields = (number(parts[1]), parts[2], number(parts[3], digits: [2, 4]), parts[4...6])
        case 7:
            // "Sun Nov  6 08:49:37 1994"
            fields = (number(parts[2]), parts[1], number(parts[6], digits: [4]), parts[3...5])
        default:
            return nil
        }
        guard let day = fields.day, var year = fields.year,
            let month = months.firstIndex(of: fields.month.lowercased()).map({ $0 + 1 })
        else { return nil }
        let time = fields.time.compactMap { number($0) }
        guard time.count == 3, (1...31).contains(day), (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2]) else {
            return nil
        }
        // RFC 850's two-digit years: 00-69 are 20xx, 70-99 19xx. A fixed pivot, where RFC 9110
        // counts 50 years from today; in 2026 the two disagree only on 70-76 (a form obsolete
        // since 1994, whose dates are in the past).
        if year < 100 { year += year < 70 ? 2000 : 1900 }
        let components = DateComponents(year: year, month: month, day: day, hour: time[0], minute: time[1], second: time[2])
        // The calendar rolls 31 November over to 1 December: such a date is no date.
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
        return date
    }

    /// `date` as an IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), to the second below.
    package static func format(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        let month = months[(c.month ?? 1) - 1].capitalized
        return "\(weekdays[(c.weekday ?? 1) - 1]), \(two(c.day)) \(month) \(c.year ?? 1970) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) GMT"
    }

    /// The value of a field of ASCII digits only, with one of the allowed counts of digits (one or
    /// two by default: days and times). `Int(_:)` alone would take a sign, and a year of 19
    /// digits, which the calendar wraps round to year 1.
    private static func number(_ text: String, digits: [Int] = [1, 2]) -> Int? {
        guard digits.contains(text.utf8.count), text.isASCIIDigits else { return nil }
        return Int(text)
    }
}
