import SchemaLabSQLite
import SchemaLabCoreData

/// Object identity that holds across variants whose primary keys differ: each object as its
/// entity (by its position in the data set's entity choice) and its rank among that entity's
/// objects by primary key.
///
/// Fetch signatures compare object IDs, which is right when every variant inserts the same
/// rows in the same order into tables of their own. A data set whose `entity` field chooses
/// each row's entity breaks that: in a hierarchy the sub-entities share one table and one key
/// sequence, so the same photo is Z_PK 14,001 there and 1 in its own table. Within one
/// entity both keep the data set's order, so the rank is the same object.
struct LogicalIdentity {
    /// The entity names of the data set's choice, alphabetically.
    let entities: [String]

    /// `ids` of objects of `entity` (or its sub-entities) as `rank * 64 + entity position`.
    func map(_ ids: [Int64], entity: EntityModel, model: ResolvedModel, store: Store) throws -> [Int64] {
        let rows = try store.db.rows("SELECT Z_PK, Z_ENT FROM \(entity.table) ORDER BY Z_ENT, Z_PK", [])
        var logical: [Int64: Int64] = [:]
        var rank: Int64 = 0
        var current: Int64 = -1
        for row in rows {
            guard let pk = row[0].integerValue, let number = row[1].integerValue else { continue }
            if number != current { current = number; rank = 0 }
            rank += 1
            let name = number >= 1 && Int(number) <= model.entities.count ? model.entities[Int(number) - 1].name : ""
            let position = Int64(entities.firstIndex(of: name) ?? 63)
            logical[pk] = rank * 64 + position
        }
        return ids.map { logical[$0] ?? -$0 }
    }
}
