/// A resolved ``CounterSpec``: `entity.count` = number of `source` objects whose
/// `sourceKey` equals `entity.key`, maintained by the context when it saves.
package struct CounterModel: Sendable, Equatable {
    package let entity: String
    package let key: AttributeModel
    package let count: AttributeModel
    package let source: String
    package let sourceKey: AttributeModel

    /// Memberwise.
    package init(entity: String, key: AttributeModel, count: AttributeModel, source: String, sourceKey: AttributeModel) {
        self.entity = entity
        self.key = key
        self.count = count
        self.source = source
        self.sourceKey = sourceKey
    }
}
