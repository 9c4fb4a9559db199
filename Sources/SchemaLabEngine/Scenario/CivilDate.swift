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
