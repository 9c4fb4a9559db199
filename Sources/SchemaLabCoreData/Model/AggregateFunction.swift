/// An aggregate function of an NSExpression (`@min`, `@max`, `@avg`, `@sum`, `@count`).
public enum AggregateFunction: String, Sendable, CaseIterable {
    /// The smallest value (`@min`, SQL `min()`).
    case min
    /// The largest value (`@max`, SQL `max()`).
    case max
    /// The mean (`@avg`, SQL `avg()`).
    case avg
    /// The sum (`@sum`: SQLite's `total()`, as Core Data's store writes it).
    case sum
    /// How many values (`@count`, SQL `COUNT()`).
    case count
}
