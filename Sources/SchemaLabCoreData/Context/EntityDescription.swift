import SchemaLabSQLite

/// An entity as the context uses it: the model plus its prepared SQL text and
/// the positions of its to-one relationships. A class, so that every managed
/// object shares one.
public final class EntityDescription {
    package let model: EntityModel
    /// The to-one relationships with a foreign key here, in ``ManagedObject/related`` order.
    package let toOne: [RelationshipModel]
    /// The to-many relationships (one-to-many and many-to-many), in ``ManagedObject/toManyTargets`` order.
    package let toMany: [RelationshipModel]
    /// How many to-one relationships its objects keep a slot for (read by the inlined
    /// initializer of ``ManagedObject``).
    public var toOneCount: Int { toOne.count }
    /// How many to-many relationships its objects keep a slot for.
    public var toManyCount: Int { toMany.count }
    /// True when one of `toMany` is ordered.
    package let hasOrderedToMany: Bool
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
    /// The number of the hierarchy's root: the registry's key and the Z_PRIMARYKEY row whose
    /// Z_MAX numbers every object of the hierarchy (one table, one key sequence).
    package let rootNumber: Int
    /// Per `toOne` slot: true when the destination has sub-entities, so that the row holds the
    /// destination's entity number beside the key.
    package let toOneHasEntityColumn: [Bool]
    /// Per `toOne` slot: true when it is the inverse of an ordered to-many, so that the row
    /// holds the order key after the key.
    package let toOneHasOrderColumn: [Bool]
    /// True when no to-one keeps a destination-entity or order column (the plain row layout).
    package let plainKeys: Bool
    /// The model's `EntityModel/sharesTable` and `EntityModel/hasSubentities`, kept here so
    /// that the per-row paths read a flag rather than the model struct.
    package let sharesTable: Bool
    package let hasSubentities: Bool
    /// True when a row needs ``materializeLaidOut``: a shared table or extra key columns.
    package let laidOut: Bool
    /// Per `toMany` index: true for an ordered relationship.
    package let toManyOrdered: [Bool]
    /// `model.attributes.count`, read per row without copying the model (the struct's copy
    /// retains each of its arrays and strings).
    @usableFromInline package let attributeCount: Int
    /// `attributeCount` NULLs: what a fault without room of its own reads (see
    /// ``ManagedObject``). Never written; freed with the description.
    @usableFromInline let nullValues: UnsafeMutablePointer<SQLValue>
    /// The indexes of the 32-bit Float attributes, whose values the context holds as a Float
    /// holds them (see `SQLValue/heldAsFloat`); empty for most entities.
    public let floatAttributeIndexes: [Int]
    /// Per `toMany` index, the statement that fires its fault (rendered once).
    package let toManyFaultSQL: [String]
    /// For an entity whose table is shared: per entity number, the description of each entity
    /// a row of this entity's fetch can be (itself and every sub-entity), set once all exist.
    @exclusivity(unchecked) package var concreteByNumber: [EntityDescription?] = []
    /// For a shared table: per entity number, where that entity's values sit in this entity's
    /// object query (`FetchSQL/selectedColumns(_:in:)`), set once all descriptions exist.
    @exclusivity(unchecked) package var layouts: [RowLayout?] = []

    deinit {
        for index in 0..<attributeCount {
            guard case .null = nullValues[index] else {
                preconditionFailure("\(model.name)'s shared NULL values were written (attribute \(index)): a fault was filled without room")
            }
        }
        nullValues.deinitialize(count: attributeCount)
        nullValues.deallocate()
    }

    init(model: EntityModel, in resolvedModel: ResolvedModel) {
        self.model = model
        self.toOne = model.toOneRelationships
        self.rootNumber = resolvedModel.entity(model.root)?.number ?? model.number
        self.toOneHasEntityColumn = model.toOneRelationships.map { $0.destinationEntityColumn != nil }
        self.toOneHasOrderColumn = model.toOneRelationships.map { $0.orderColumn != nil }
        self.plainKeys = !toOneHasEntityColumn.contains(true) && !toOneHasOrderColumn.contains(true)
        self.sharesTable = model.sharesTable
        self.hasSubentities = model.hasSubentities
        self.laidOut = model.sharesTable || !plainKeys
        self.toMany = model.relationships.filter(\.toMany)
        self.hasOrderedToMany = toMany.contains(where: \.ordered)
        self.toManyOrdered = toMany.map(\.ordered)
        self.attributeCount = model.attributes.count
        self.nullValues = .allocate(capacity: max(model.attributes.count, 1))
        nullValues.initialize(repeating: .null, count: model.attributes.count)
        self.floatAttributeIndexes = model.attributes.indices.filter { model.attributes[$0].type == .float }
        self.toManyFaultSQL = toMany.map { FetchSQL(model: resolvedModel, entity: model).toManyFault($0) }
        self.insertSQL = SaveSQL.insert(model)
        var links: [(toManyIndex: Int, sql: String)] = []
        for (i, r) in toMany.enumerated() {
            guard case .joinTable(let table, let own, let other) = r.storage else { continue }
            if StoreLayout.namesJoinTable(table, entityNumber: model.number, relationship: r.name) {
                links.append((i, SaveSQL.insertLink(table: table, ownColumn: own, otherColumn: other, orderColumn: r.orderColumn)))
            }
        }
        self.linkInserts = links
        self.fetchSQL = FetchSQL(model: resolvedModel, entity: model)
        self.faultSQL = fetchSQL.fault
        self.defaults = model.attributes.indices.compactMap { i in model.attributes[i].defaultValue.map { (i, $0) } }
        self.requiredAttributes = model.attributes.indices.filter { !model.attributes[$0].optional }
        self.externalAttributes = model.attributes.indices.filter { model.attributes[$0].allowsExternalStorage }
            .map { ($0, model.attributes[$0].externalStorageThreshold) }
        self.canonicalPairs = model.attributes.indices.compactMap { t in
            model.attributes[t].canonicalOf.flatMap { s in model.attributes.firstIndex { $0.name == s } }.map { (t, $0) }
        }
    }

    /// The attributes with a default value, by index.
    let defaults: [(index: Int, value: SQLValue)]

    /// The binary attributes with external storage, by index, and their thresholds.
    let externalAttributes: [(index: Int, threshold: Int)]

    /// The canonical search attributes (`canonicalOf`) and their sources, by index.
    let canonicalPairs: [(target: Int, source: Int)]

    /// The attributes that are not optional (validated before a save), by index.
    package let requiredAttributes: [Int]

    /// Where a concrete entity's values sit in a row of a shared-table fetch: the column of each
    /// attribute, of each to-one key, and of each to-one's destination-entity number (or -1).
    package struct RowLayout {
        package let attributes: [Int32]
        package let keys: [Int32]
        package let keyEntities: [Int32]
    }

    /// Fills ``layouts`` and ``concreteByNumber`` for a shared table (after all descriptions exist).
    func linkSubentities(_ all: [EntityDescription], model resolved: ResolvedModel) {
        guard model.sharesTable else { return }
        let columns = FetchSQL.selectedColumns(model, in: resolved)
        let position = { (c: String) -> Int32 in Int32(3 + columns.firstIndex(of: c)!) }
        let count = all.count + 1
        concreteByNumber = Array(repeating: nil, count: count)
        layouts = Array(repeating: nil, count: count)
        for number in [model.number] + model.subentityNumbers {
            let d = all[number - 1]
            concreteByNumber[number] = d
            layouts[number] = RowLayout(
                attributes: d.model.attributes.map { position($0.column) },
                keys: d.toOne.map { position($0.foreignKeyColumn!) },
                keyEntities: d.toOne.map { $0.destinationEntityColumn.map(position) ?? -1 })
        }
    }

    /// The description of the entity a row of this entity's table names in Z_ENT (itself when
    /// the number is not one of its own or its sub-entities').
    @inline(__always)
    package func concrete(_ number: Int64) -> EntityDescription {
        guard number > 0 && Int(number) < concreteByNumber.count, let d = concreteByNumber[Int(number)] else { return self }
        return d
    }

    public var name: String { model.name }
    package var number: Int { model.number }

    /// The position of a to-one relationship in ``ManagedObject/related``.
    package func toOneIndex(_ name: String) -> Int? { toOne.firstIndex { $0.name == name } }

    /// The position of a to-many relationship in ``ManagedObject/toManyTargets``.
    package func toManyIndex(_ name: String) -> Int? { toMany.firstIndex { $0.name == name } }
}
