/// The string comparison of a sort descriptor, and the collation Core Data's SQL store sorts
/// with for it (`ORDER BY t0.ZNAME COLLATE NSCollateLocaleSensitive`).
public enum SortComparator: String, Sendable, CaseIterable {
    /// `localizedCompare:`, SwiftData's `.localized`: logged as `COLLATE NSCollateLocaleSensitive`.
    case localized
    /// `localizedCaseInsensitiveCompare:` ([I]: `NSCollateLocaleSensitiveNoCase`, by its name).
    case localizedCaseInsensitive
    /// `caseInsensitiveCompare:` ([I]: `NSCollateNoCase`).
    case caseInsensitive
    /// `localizedStandardCompare:`, SwiftData's `.localizedStandard` ([I]: `NSCollateFinderlike`,
    /// the Finder's numeric, case- and diacritic-insensitive order).
    case localizedStandard

    /// The collation the store registers for it.
    public var collation: String {
        switch self {
        case .localized: return "NSCollateLocaleSensitive"
        case .localizedCaseInsensitive: return "NSCollateLocaleSensitiveNoCase"
        case .caseInsensitive: return "NSCollateNoCase"
        case .localizedStandard: return "NSCollateFinderlike"
        }
    }
}
