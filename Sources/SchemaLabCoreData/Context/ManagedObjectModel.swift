/// The context's run-time form of a `ResolvedModel` (Core Data's NSManagedObjectModel):
/// every entity's description, with its prepared SQL, linked to its relationships' destinations.
public final class ManagedObjectModel {
    package let model: ResolvedModel
    public let entities: [EntityDescription]

    /// True when some entity has a non-optional attribute (a save then validates).
    let hasRequiredAttributes: Bool
    /// True when some entity keeps a canonical search attribute (a save then sets it).
    let hasCanonicalAttributes: Bool

    /// True when some attribute has a default value (a save then applies them).
    let hasDefaults: Bool
    /// True when some entity is abstract (a save then refuses its instances).
    let hasAbstractEntities: Bool
    /// True when some relationship is ordered (a save then numbers its members).
    let hasOrderedRelationships: Bool

    package init(_ model: ResolvedModel) {
        self.model = model
        entities = model.entities.map { EntityDescription(model: $0, in: model) }
        hasRequiredAttributes = entities.contains { !$0.requiredAttributes.isEmpty }
        hasCanonicalAttributes = entities.contains { !$0.canonicalPairs.isEmpty }
        hasDefaults = entities.contains { !$0.defaults.isEmpty }
        hasAbstractEntities = entities.contains { $0.model.isAbstract }
        hasOrderedRelationships = entities.contains { $0.hasOrderedToMany }
        for e in entities {
            e.destinations = e.toOne.map { r in entities.first { $0.name == r.destination }! }
            e.toManyDestinations = e.toMany.map { r in entities.first { $0.name == r.destination }! }
        }
        for e in entities { e.linkSubentities(entities, model: model) }
    }

    public func entity(_ name: String) -> EntityDescription? { entities.first { $0.name == name } }

    /// The entities point at each other (a relationship's destination, a hierarchy's concrete
    /// entities, themselves among them): strong references each way, kept for the fetch loop's
    /// speed, which this model owns and breaks when it goes. Nothing uses an entity without its
    /// model (a context holds it), so no entity is left with its links cut while in use. The
    /// leak this fixes was found by the scenario fuzz target's LeakSanitizer (issue 24).
    deinit {
        for e in entities {
            e.destinations = []
            e.toManyDestinations = []
            e.concreteByNumber = []
        }
    }
}
