import Foundation

/// Calendar arithmetic for Core Data's date encoding (seconds since 2001-01-01 UTC).
public enum CivilDate {
    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Days from 2001-01-01 (NSDate's reference date) to the given date.
    public static func daysSince2001(year: Int, month: Int, day: Int) -> Int {
        daysSince1970(year: year, month: month, day: day) - 11_323
    }

    /// The given day's midnight UTC, in seconds since 2001-01-01 (a `dateRange` bound: its
    /// `to` is the midnight after the last day, `midnight(year: 2015, month: 1, day: 1)` for
    /// a range through 2014-12-31).
    public static func midnight(year: Int, month: Int, day: Int) -> Double {
        Double(daysSince2001(year: year, month: month, day: day)) * 86_400
    }

    /// The midnight UTC of a day written `YYYY-MM-DD`, in seconds since 2001-01-01; nil when
    /// the text is not four, two and two digits (a sign is taken) with a month in 1...12 and
    /// a day in 1...31.
    public static func midnight(day text: String) -> Double? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            (1...12).contains(m), (1...31).contains(d)
        else { return nil }
        return midnight(year: y, month: m, day: d)
    }

    /// An ISO 8601 instant (`2014-10-01T00:00:00Z`, `2024-05-01T12:30:52.0256+02:00`) in
    /// seconds since 2001-01-01, with every digit of its fraction: Core Data stores a date as
    /// that double, so a fraction is kept to the double's precision (about 0.1 µs today), not
    /// cut to milliseconds. Nil when the text is not `YYYY-MM-DDTHH:MM:SS`, an optional `.`
    /// and digits, and `Z` or an offset `±HH:MM` (or `±HHMM`).
    public static func instant(_ text: String) -> Double? {
        let chars = Array(text.utf8)
        func digits(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= chars.count else { return nil }
            var value = 0
            for c in chars[from..<(from + count)] {
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            return value
        }
        func at(_ i: Int, _ c: Character) -> Bool { i < chars.count && chars[i] == c.asciiValue! }
        guard at(4, "-"), at(7, "-"), at(10, "T") || at(10, "t"), at(13, ":"), at(16, ":"),
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
            let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
            (1...12).contains(month), (1...daysIn(year: year, month: month)).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        var i = 19
        var fraction = 0.0
        if at(i, ".") || at(i, ",") {
            var j = i + 1
            while j < chars.count, chars[j] >= 48 && chars[j] <= 57 { j += 1 }
            guard j > i + 1, let f = Double("0." + String(decoding: chars[(i + 1)..<j], as: UTF8.self)) else { return nil }
            fraction = f
            i = j
        }
        var offset = 0
        if at(i, "Z") || at(i, "z") {
            i += 1
        } else if at(i, "+") || at(i, "-") {
            let sign = at(i, "-") ? -1 : 1
            let colon = at(i + 3, ":")
            guard let h = digits(i + 1, 2), let m = digits(i + (colon ? 4 : 3), 2), h < 24, m < 60 else { return nil }
            offset = sign * (h * 3600 + m * 60)
            i += colon ? 6 : 5
        } else {
            return nil
        }
        guard i == chars.count else { return nil }
        let whole = daysSince2001(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Double(whole) + fraction
    }

    /// `seconds` since 2001-01-01 as an ISO 8601 instant in UTC, with the fewest fraction
    /// digits (up to 17) that ``instant(_:)`` reads back as the same double; a fraction that
    /// rounds up to a whole second carries into it.
    public static func instantText(_ seconds: Double) -> String {
        func text(whole: Int, digits: String) -> String {
            let days = Int((Double(whole) / 86_400).rounded(.down))
            let (y, mo, d) = date(daysSince2001: days)
            let inDay = whole - days * 86_400
            let stem = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, d, inDay / 3600, inDay % 3600 / 60, inDay % 60)
            return stem + (digits.isEmpty ? "" : "." + digits) + "Z"
        }
        let whole = seconds.rounded(.down)
        let fraction = seconds - whole
        if fraction == 0 { return text(whole: Int(whole), digits: "") }
        var best = text(whole: Int(whole), digits: "")
        for places in 1...17 {
            let scale = pow(10, Double(places))
            var scaled = (fraction * scale).rounded()
            var second = Int(whole)
            if scaled >= scale {
                second += 1
                scaled -= scale
            }
            let digits = String(Int64(scaled))
            best = text(whole: second, digits: String(repeating: "0", count: places - digits.count) + digits)
            if instant(best) == seconds { return best }
        }
        return best
    }

    /// The days of `month` in `year` (proleptic Gregorian).
    static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The date `days` after 2001-01-01 (Howard Hinnant's civil_from_days): the inverse of
    /// ``daysSince2001(year:month:day:)``.
    package static func date(daysSince2001 days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 11_323 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
