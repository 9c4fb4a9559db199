/// A resolved ``CounterSpec``: `entity.count` = number of `source` objects whose
/// `sourceKey` equals `entity.key`, maintained by the context when it saves.
public struct CounterModel: Sendable, Equatable {
    public let entity: String
    public let key: AttributeModel
    public let count: AttributeModel
    public let source: String
    public let sourceKey: AttributeModel

    /// Memberwise.
    package init(entity: String, key: AttributeModel, count: AttributeModel, source: String, sourceKey: AttributeModel) {
        self.entity = entity
        self.key = key
        self.count = count
        self.source = source
        self.sourceKey = sourceKey
    }
}
