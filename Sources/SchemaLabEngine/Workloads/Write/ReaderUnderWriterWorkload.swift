import Foundation
import SchemaLabSQLite
import SchemaLabCoreData

/// A user scrolling a list while the app imports in the background: a second thread, on
/// its own connection, appends the data set's next `count` rows (saving every `saveEvery`),
/// while this thread repeats a list fetch (sorted, a first page by `fetchLimit` or a
/// batched list by `batchSize`, touching `touch` objects), each read on a new context,
/// until the writer is done (or `reads` reads were taken). Every read's latency is kept.
///
/// `journalMode` `wal` lets the reader read the last committed data while the writer
/// writes; `delete` (a rollback journal) makes it wait for the writer's commit: both
/// connections retry a locked database for up to 60 s (`sqlite3_busy_timeout`), so the
/// wait shows as latency instead of an error.
///
/// Timed: the whole overlap (until the writer is done), from starting the writer's thread.
/// The case's `longest_write_ms` is the writer's longest transaction; `statements` are the
/// reader's. Not timed (``prepare(store:)``): copying the filled store, switching the
/// journal mode, opening the writer's connection.
package final class ReaderUnderWriterWorkload: Workload {
    package let spec: WorkloadSpec
    let model: ManagedObjectModel
    let reader: FetchWorkload
    let writer: AppendWorkload
    let logical: LogicalRows
    let pragmas: [Pragma]
    /// The writer's connection for the next repetition (opened in ``prepare(store:)``).
    private var writerStore: Store?

    init(
        spec: WorkloadSpec, model: ManagedObjectModel, dataset: DatasetSpec, size: Int, placement: DataPlacement,
        logical: LogicalRows, pragmas: [Pragma]
    ) throws(KeyPathError) {
        if !placement.related.isEmpty {
            throw KeyPathError(message: "the writer appends root rows only; this data set has 'related' entries", at: ".kind")
        }
        self.spec = spec
        self.model = model
        self.logical = logical
        var read = spec
        read.kind = .fetch
        reader = try FetchWorkload(spec: read, model: model, rootEntity: dataset.entity)
        var write = spec
        write.kind = .append
        writer = try AppendWorkload(spec: write, model: model, dataset: dataset, size: size, placement: placement)
        self.pragmas = pragmas.filter { $0.name != "journal_mode" } + [Pragma(name: "journal_mode", value: spec.journalMode.rawValue)]
    }

    /// The writer's side, handed to its thread.
    private final class WriterJob: @unchecked Sendable {
        let store: Store
        let workload: AppendWorkload
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var finished = false
        var error: (any Error)?
        var longestWriteMs = 0.0

        init(store: Store, workload: AppendWorkload) {
            self.store = store
            self.workload = workload
        }

        var isActive: Bool { lock.lock(); defer { lock.unlock() }; return !finished }

        func run() {
            store.db.resetCounters()
            do { _ = try workload.run(store: store) } catch { self.error = error }
            longestWriteMs = Double(store.db.longestWriteNanoseconds) / 1e6
            lock.lock()
            finished = true
            lock.unlock()
            done.signal()
        }
    }

    /// Untimed: the journal mode, the busy timeouts, the writer's connection.
    package func prepare(store: Store) throws {
        try store.db.executeScript("pragma journal_mode=\(spec.journalMode.rawValue)")
        store.db.setBusyTimeout(milliseconds: 60_000)
        let w = try Store.open(path: store.path, model: model.model, pragmas: pragmas)
        w.db.setBusyTimeout(milliseconds: 60_000)
        writerStore = w
    }

    package func run(store: Store) throws -> WorkloadOutcome {
        if writerStore == nil { try prepare(store: store) }
        let job = WriterJob(store: writerStore!, workload: writer)
        writerStore = nil
        let thread = Thread { job.run() }
        thread.start()
        var reads: [(ms: Double, writerActive: Bool, rows: Int)] = []
        let limit = spec.reads > 0 ? spec.reads : Int.max
        var readError: (any Error)?
        while reads.count < limit {
            let active = job.isActive
            if !active && !reads.isEmpty { break }
            let t0 = Clock.wallNanoseconds()
            let read: WorkloadOutcome
            do { read = try reader.run(store: store) } catch { readError = error; break }
            reads.append((Double(Clock.wallNanoseconds() - t0) / 1e6, active, read.rows))
        }
        job.done.wait()
        switch (job.error, readError) {
        case (let w?, let r?): throw ReaderWriterError(writer: w, reader: r)
        case (let w?, nil): throw w
        case (nil, let r?): throw r
        case (nil, nil): break
        }
        var outcome = WorkloadOutcome(rows: reads.count, valuesRead: 0) { try self.logical.signature(store) }
        outcome.reads = reads
        outcome.longestWriteMs = job.longestWriteMs
        return outcome
    }
}

/// Both sides of a reader under a writer failed: both errors, the writer's first.
struct ReaderWriterError: Error, CustomStringConvertible {
    let writer: any Error
    let reader: any Error
    var description: String { "the writer failed: \(writer); the reader failed too: \(reader)" }
}
