import SchemaLabSQLite

/// An objects fetch's `propertiesToFetch`: the attributes and to-one relationships its rows
/// carry. Core Data selects the entity number, the primary key and only these columns, in the
/// order listed (`SELECT 1, t0.Z_PK, t0.ZNAME, t0.ZCATEGORYNAME FROM ZARTICLE t0 …`, no
/// Z_OPT); the objects are faults whose listed properties read without SQL, and reading any
/// other property fires the fault (the whole row by primary key).
public final class PartialProperties {
    /// The entity's attribute indexes, in the order listed.
    public let attributes: [Int]
    /// The entity's to-one indexes, in the order listed.
    public let toOnes: [Int]
    /// The selected columns after Z_PK, in the order listed.
    public let columns: [String]
    let hasAttribute: [Bool]
    let hasToOne: [Bool]
    /// `1, t0.Z_PK, t0.ZNAME, …`: the entity number, the key and the listed columns (rendered
    /// once: batch windows use it outside the request's own statements).
    let selectList: String

    /// The listed property names of `entity`, each an attribute or a to-one relationship.
    package init(_ names: [String], of entity: EntityDescription) throws(KeyPathError) {
        guard !entity.hasSubentities else {
            throw KeyPathError(
                message:
                    "propertiesToFetch on managed objects of \(entity.name), which has sub-entities, is not modelled (the lab's partial objects are of one entity)"
            )
        }
        var attributes: [Int] = [], toOnes: [Int] = [], columns: [String] = []
        for name in names {
            if let i = entity.model.attributes.firstIndex(where: { $0.name == name }) {
                attributes.append(i)
                columns.append(entity.model.attributes[i].column)
            } else if let j = entity.toOneIndex(name) {
                toOnes.append(j)
                columns.append(entity.toOne[j].foreignKeyColumn!)
            } else {
                throw KeyPathError(
                    message:
                        "'\(name)' is not an attribute or a to-one relationship of \(entity.name) (propertiesToFetch on managed objects)")
            }
        }
        self.attributes = attributes
        self.toOnes = toOnes
        self.columns = columns
        var hasAttribute = Array(repeating: false, count: entity.attributeCount)
        for i in attributes { hasAttribute[i] = true }
        var hasToOne = Array(repeating: false, count: entity.toOne.count)
        for j in toOnes { hasToOne[j] = true }
        self.hasAttribute = hasAttribute
        self.hasToOne = hasToOne
        // The entity number, as Core Data logs it for a partial fetch (entities with
        // sub-entities are refused above, so no row's Z_ENT is needed).
        selectList = ([String(entity.number), "t0.Z_PK"] + columns.map { "t0.\($0)" }).joined(separator: ", ")
    }
}
