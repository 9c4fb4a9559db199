/// One schema variant, resolved: what the store turns into DDL and SQL.
public struct ObjectModel: Sendable, Equatable {
    /// The variant's name (`V1+index`).
    public let variant: String
    /// Entities in alphabetical order; `entities[i].number == i + 1`.
    public let entities: [EntityModel]
    /// Denormalized counters the context maintains at save time.
    public var counters: [CounterModel] = []

    public init(variant: String, entities: [EntityModel], counters: [CounterModel] = []) {
        self.variant = variant
        self.entities = entities
        self.counters = counters
    }

    public func entity(_ name: String) -> EntityModel? { entities.first { $0.name == name } }
}
