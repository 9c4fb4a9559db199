/// One schema variant, resolved: its entities numbered, each with its table, columns,
/// relationships' storage and indexes; what the store turns into DDL and SQL.
///
/// The lab's four models, from the outside in: an `ImportedModel` is an Xcode model or a
/// store as read (the importer's input); a `VariantSpec` is a variant as a scenario writes it
/// (names, edits of another variant); `SchemaResolver` turns each into a `ResolvedModel`
/// (this value); a ``ManagedObjectModel`` is the context's run-time form of one, with each
/// entity's prepared SQL and relationship slots.
package struct ResolvedModel: Sendable, Equatable {
    /// The variant's name (`V1+index`).
    package let variant: String
    /// Entities in number order (alphabetical, each followed by its sub-entities);
    /// `entities[i].number == i + 1`.
    package let entities: [EntityModel]
    /// Denormalized counters the context maintains at save time.
    package var counters: [CounterModel] = []
    /// Persistent history is on (`NSPersistentHistoryTrackingKey`): the store has the history
    /// tables and every save and batch request writes a transaction (``HistorySQL``).
    package var persistentHistory = false

    package init(variant: String, entities: [EntityModel], counters: [CounterModel] = []) {
        self.variant = variant
        self.entities = entities
        self.counters = counters
    }

    package func entity(_ name: String) -> EntityModel? { entities.first { $0.name == name } }

    /// The history's tombstone columns: the most attributes one entity preserves after deletion.
    package var tombstoneCount: Int {
        entities.map { $0.attributes.filter(\.preservesAfterDeletion).count }.max() ?? 0
    }
}
