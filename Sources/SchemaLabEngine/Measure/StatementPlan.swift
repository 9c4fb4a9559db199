import SchemaLabSQLite

/// One distinct statement a case ran, with its query plan (`EXPLAIN QUERY PLAN`).
public struct StatementPlan: Sendable, Equatable {
    /// The statement's place among the case's distinct statements (from 1).
    public var number: Int
    /// The statement's SQL, with `?` for its parameters.
    public var sql: String
    /// The plan's nodes, parents before their children; empty for a statement without a
    /// plan (an INSERT of values).
    public var plan: [QueryPlanNode]

    /// A statement and its plan.
    public init(number: Int, sql: String, plan: [QueryPlanNode]) {
        self.number = number
        self.sql = sql
        self.plan = plan
    }

    /// The plan's lines (each node's detail), in order.
    public var planLines: [String] { plan.map(\.detail) }
}
