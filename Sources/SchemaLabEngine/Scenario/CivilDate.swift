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
}
