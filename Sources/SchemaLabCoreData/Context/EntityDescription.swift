/// An entity as the context uses it: the model plus its prepared SQL text and
/// the positions of its to-one relationships. A class, so that every managed
/// object shares one.
public final class EntityDescription {
    public let model: EntityModel
    /// The to-one relationships with a foreign key here, in ``ManagedObject/related`` order.
    public let toOne: [RelationshipModel]
    /// The to-many relationships (one-to-many and many-to-many), in ``ManagedObject/toManyTargets`` order.
    public let toMany: [RelationshipModel]
    let insertSQL: String
    /// The many-to-many relationships whose join-table rows a save writes from this side
    /// (the side that names the table, so each link is written once): `toMany` index and INSERT.
    let linkInserts: [(toManyIndex: Int, sql: String)]
    let faultSQL: String
    package let fetchSQL: FetchSQL
    /// Destination descriptions of `toOne`, set once all descriptions exist.
    @exclusivity(unchecked) package var destinations: [EntityDescription] = []
    /// Destination descriptions of `toMany`, set once all descriptions exist.
    @exclusivity(unchecked) package var toManyDestinations: [EntityDescription] = []

    init(model: EntityModel, in resolvedModel: ResolvedModel) {
        self.model = model
        self.toOne = model.toOneRelationships
        self.toMany = model.relationships.filter(\.toMany)
        self.insertSQL = SaveSQL.insert(model)
        var links: [(toManyIndex: Int, sql: String)] = []
        for (i, r) in toMany.enumerated() {
            guard case .joinTable(let table, let own, let other) = r.storage else { continue }
            if (model.name, r.name) <= (r.destination, r.inverse ?? "") {
                links.append((i, SaveSQL.insertLink(table: table, ownColumn: own, otherColumn: other)))
            }
        }
        self.linkInserts = links
        self.fetchSQL = FetchSQL(model: resolvedModel, entity: model)
        self.faultSQL = fetchSQL.fault
        self.requiredAttributes = model.attributes.indices.filter { !model.attributes[$0].optional }
        self.externalAttributes = model.attributes.indices.filter { model.attributes[$0].allowsExternalStorage }
            .map { ($0, model.attributes[$0].externalStorageThreshold) }
        self.canonicalPairs = model.attributes.indices.compactMap { t in
            model.attributes[t].canonicalOf.flatMap { s in model.attributes.firstIndex { $0.name == s } }.map { (t, $0) }
        }
    }

    /// The binary attributes with external storage, by index, and their thresholds.
    let externalAttributes: [(index: Int, threshold: Int)]

    /// The canonical search attributes (`canonicalOf`) and their sources, by index.
    let canonicalPairs: [(target: Int, source: Int)]

    /// The attributes that are not optional (validated before a save), by index.
    package let requiredAttributes: [Int]

    public var name: String { model.name }
    package var number: Int { model.number }

    /// The position of a to-one relationship in ``ManagedObject/related``.
    package func toOneIndex(_ name: String) -> Int? { toOne.firstIndex { $0.name == name } }

    /// The position of a to-many relationship in ``ManagedObject/toManyTargets``.
    package func toManyIndex(_ name: String) -> Int? { toMany.firstIndex { $0.name == name } }
}
