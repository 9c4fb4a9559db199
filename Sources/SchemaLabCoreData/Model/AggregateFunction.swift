/// An aggregate function of an NSExpression (`@min`, `@max`, `@avg`, `@sum`, `@count`).
public enum AggregateFunction: String, Sendable, CaseIterable {
    case min, max, avg, sum, count
}
