import SchemaLabSQLite

/// SQL text with the values of its `?`s, in order.
struct Fragment {
    var sql: String
    var bindings: [SQLValue]

    init(_ sql: String, _ bindings: [SQLValue] = []) {
        self.sql = sql
        self.bindings = bindings
    }

    static func + (a: Fragment, b: Fragment) -> Fragment { Fragment(a.sql + b.sql, a.bindings + b.bindings) }
    static func + (a: Fragment, b: String) -> Fragment { Fragment(a.sql + b, a.bindings) }
    static func + (a: String, b: Fragment) -> Fragment { Fragment(a + b.sql, b.bindings) }
}

/// What a key path names, relative to a scope's entity.
enum ResolvedPredicatePath {
    /// An attribute, through to-one relationships.
    case attribute([RelationshipModel], AttributeModel)
    /// An object: the scope's row (no relationships) or the end of a to-one chain.
    case object([RelationshipModel])
    /// A to-many relationship after to-one ones, and the key path after it.
    case toMany(prefix: [RelationshipModel], relationship: RelationshipModel, rest: [String])
}

/// One side of a comparison, compiled.
enum Operand {
    case constant(PredicateValue, column: Int)
    /// A column or scalar subquery. `attribute`: its attribute when it is one (for type checks);
    /// `object`: a primary or foreign key; `nullable`: it can be NULL where NSPredicate sees nil.
    case value(Fragment, attribute: AttributeModel?, object: Bool, nullable: Bool, text: String, column: Int)

    var column: Int {
        switch self {
        case .constant(_, let c), .value(_, _, _, _, _, let c): return c
        }
    }
}
