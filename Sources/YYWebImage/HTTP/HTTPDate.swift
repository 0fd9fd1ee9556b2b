import Foundation

/// HTTP dates (RFC 9110 §5.6.7): the IMF-fixdate everyone sends, and the two obsolete forms a
/// recipient must accept. Parsed by hand: `DateFormatter` is neither fast nor `Sendable`.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date, or `nil` for text in none of the three forms.
    static func parse(_ text: String) -> Date? {
        // Split on spaces, commas, dashes and colons: every form becomes its numbers and names.
        let parts = text.split { $0 == " " || $0 == "," || $0 == "-" || $0 == ":" }.map(String.init)
        let fields: (day: Int?, month: String, year: Int?, time: ArraySlice<String>)
        switch parts.count {
        case 8 where parts[7].uppercased() == "GMT":
            // "Sun, 06 Nov 1994 08:49:37 GMT" or "Sunday, 06-Nov-94 08:49:37 GMT"
            fields = (Int(parts[1]), parts[2], Int(parts[3]), parts[4...6])
        case 7:
            // "Sun Nov  6 08:49:37 1994"
            fields = (Int(parts[2]), parts[1], Int(parts[6]), parts[3...5])
        default:
            return nil
        }
        guard let day = fields.day, var year = fields.year,
              let month = months.firstIndex(of: fields.month.lowercased()).map({ $0 + 1 }) else { return nil }
        let time = fields.time.compactMap { Int($0) }
        guard time.count == 3, (1...31).contains(day), (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2]) else { return nil }
        // RFC 850's two-digit years: the nearest century that is not more than 50 years ahead.
        if year < 100 { year += year < 70 ? 2000 : 1900 }
        let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + time[0] * 3600 + time[1] * 60 + time[2]
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
