import SchemaLabSQLite
import SchemaLabCoreData

/// Inserts the data set's next `count` rows (rows n..<n+count of the same generators)
/// into a fresh copy of the filled store, saving every `saveEvery` objects — an app
/// adding posts one by one to an existing store, with whatever a save maintains
/// (a variant's counters) included.
///
/// Timed: creating the objects and the saves. Not timed: generating the rows, copying
/// the filled store.
package final class AppendWorkload: Workload {
    package let spec: WorkloadSpec
    let model: ManagedObjectModel
    let placement: DataPlacement
    /// The new rows' values, one column per field, cut into one chunk per save.
    let chunks: [(count: Int, columns: [[SQLValue]])]

    init(spec: WorkloadSpec, model: ManagedObjectModel, dataset: DatasetSpec, size: Int, placement: DataPlacement) {
        self.spec = spec
        self.model = model
        self.placement = placement
        // Each field's stream is prefix-stable, so rows size..<size+count continue the data set:
        // the first `size` rows are generated a chunk at a time and dropped.
        var stream = DataStream(spec: dataset, count: size + spec.count, chunkSize: spec.saveEvery)
        if stream.streams {
            stream.skip(size)
            var chunks: [(count: Int, columns: [[SQLValue]])] = []
            stream.forEachChunk { chunks.append(($0.count, $0.columns)) }
            self.chunks = chunks
        } else {
            let more = GeneratedData(spec: dataset, count: size + spec.count)
            chunks = stride(from: size, to: size + spec.count, by: spec.saveEvery).map { start in
                let end = min(start + spec.saveEvery, size + spec.count)
                return (end - start, more.columns.map { Array($0[start..<end]) })
            }
        }
    }

    package func run(store: Store) throws -> WorkloadOutcome {
        let context = ManagedObjectContext(store: store, objectModel: model)
        let nodes = placement.nodes
        for chunk in chunks {
            _ = InsertWorkload.insertRows(chunk.columns, count: chunk.count, nodes: nodes, keep: false, into: context)
            try context.save()
        }
        let root = nodes[0].entity.model.table
        return WorkloadOutcome(rows: spec.count, valuesRead: 0) {
            // Root rows, and drifting counter rows (0 in a correct variant).
            let drift = SQLValue.integer(try CounterAudit.driftingRows(store, model: self.model.model))
            return ResultSignature.of(rows: [[try store.db.scalar("SELECT COUNT(*) FROM \(root)"), drift]])
        }
    }
}
