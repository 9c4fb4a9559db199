import SchemaLabCoreData
import SchemaLabEngine

/// The workloads a log's shapes become: a fetch rebuilt from each SELECT the rebuilder reads
/// (with the batch size, the faults and the result type its followers show), or the logged
/// statement kept as raw SQL with the reason; each weighted by its runs, with the device's cost.
package struct LogWorkloads {
    /// A statement that names a table or column the model lacks (an error unless kept).
    package struct UnknownNames: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// One workload made from one shape, and how.
    package struct Entry: Sendable {
        package var shape: LoggedShape
        package var workload: WorkloadSpec
        /// Nil when rebuilt as a request; else why it is raw SQL.
        package var rawReason: String?
        /// A rebuilt request's markers compared for equality with an attribute (`Entity.attribute` by marker).
        package var equalityTargets: [Int: String] = [:]
    }

    let model: ResolvedModel
    let rebuilder: RequestRebuilder
    let names: LoggedNames
    /// Keep a statement with unknown names as raw SQL rather than fail.
    let keepsUnknown: Bool

    package init(model: ResolvedModel, dateStandIn: Double, keepsUnknown: Bool) {
        self.model = model
        self.rebuilder = RequestRebuilder(model: model, dateStandIn: dateStandIn)
        self.names = LoggedNames(model: model)
        self.keepsUnknown = keepsUnknown
    }

    /// The workloads of `digest`'s SELECT shapes only.
    package func entries(_ digest: LogDigest) throws(UnknownNames) -> [Entry] {
        var none: [Entry] = []
        return try entries(digest, saves: nil, unrebuilt: &none)
    }

    /// The workloads of `digest`'s SELECT shapes and, with `saves`, of its save's write shapes
    /// (those `saves` cannot rebuild are in `unrebuilt`), by device time (most first; then by runs).
    package func entries(_ digest: LogDigest, saves: SaveRebuilder?, unrebuilt: inout [Entry]) throws(UnknownNames) -> [Entry] {
        var out: [Entry] = []
        for shape in digest.shapes where shape.kind == .select {
            let unknown = names.unknown(in: shape.first.sql)
            if !unknown.isEmpty && !keepsUnknown {
                let list = unknown.map { u in
                    u.name + (u.nearest.isEmpty ? "" : " (nearest: " + u.nearest.joined(separator: ", ") + ")")
                }
                throw UnknownNames(
                    description:
                        "line \(shape.first.line): the statement names \(list.joined(separator: ", ")), which the model does not have")
            }
            let reason: String? =
                unknown.isEmpty ? nil : "it names \(unknown.map(\.name).joined(separator: ", ")), which the model does not have"
            out.append(entry(shape, unknownReason: reason))
        }
        if let saves {
            for shape in digest.shapes where shape.kind == .write {
                do {
                    out.append(Entry(shape: shape, workload: try saves.rebuild(shape), rawReason: nil))
                } catch {
                    unrebuilt.append(
                        Entry(shape: shape, workload: WorkloadSpec(name: "", kind: .sql, sql: shape.first.sql), rawReason: error.reason))
                }
            }
        }
        out.sort { ($0.shape.seconds, $0.shape.runs) > ($1.shape.seconds, $1.shape.runs) }
        for index in out.indices {
            let table = LogDigest.writtenTable(out[index].shape.first.sql)
            let written = model.entities.first { $0.table == table && $0.parent == nil }?.name
            out[index].workload.name = Self.name(out[index], number: index + 1, written: written)
        }
        return out
    }

    private func entry(_ shape: LoggedShape, unknownReason: String?) -> Entry {
        let device = shape.device
        if let unknownReason { return raw(shape, reason: unknownReason, device: device) }
        do {
            let select = try LoggedSQLParser.select(shape.first.sql)
            var request = try rebuilder.rebuild(select, binds: shape.first.binds, entityName: shape.first.entity)
            var workload = request.workload
            if request.keysOnly {
                if shape.windows > 0 {
                    workload.resultType = .objects
                    workload.batchSize = shape.windowSize
                    workload.keyBinding = shape.windowsBindParameters ? .parameters : .integerArray
                    // The windows' LIMIT is the log's (any integer): a product past Int.max stays there, not a trap.
                    let read = shape.windows.multipliedReportingOverflow(by: shape.windowSize)
                    workload.touch = .first(max(1, (read.overflow ? .max : read.partialValue) / max(1, shape.runs)))
                } else if shape.faults > 0 {
                    workload.resultType = .objects
                    workload.includesPropertyValues = false
                    workload.touch = .first(max(1, shape.faults / max(1, shape.runs)))
                }
            }
            // A prefetch the rebuilder cannot name is left out: the round trip then says which
            // follower the request does not issue, and the fetch itself stays a request.
            for prefetch in shape.prefetchQueries.sorted() {
                if let select = try? LoggedSQLParser.select(prefetch),
                    let key = try? rebuilder.prefetchKey(select, from: workload.entity ?? ""), !workload.prefetch.contains(key)
                {
                    workload.prefetch.append(key)
                }
            }
            if let section = shape.sectionQuery {
                workload.kind = .fetchedResults
                workload.sectionKey = try rebuilder.sectionKey(try LoggedSQLParser.select(section))
            }
            request.workload = workload
            workload.weight = Double(shape.runs)
            workload.device = device
            return Entry(shape: shape, workload: workload, rawReason: nil, equalityTargets: request.equalityTargets)
        } catch let failure as LoggedSQLParser.Failure {
            return raw(shape, reason: "the import does not parse it: \(failure.message)", device: device)
        } catch let unsupported as RequestRebuilder.Unsupported {
            return raw(shape, reason: unsupported.reason, device: device)
        } catch {
            return raw(shape, reason: "\(error)", device: device)
        }
    }

    /// The shape's first statement as it was logged, with its values (or, at level 1, a stand-in
    /// per marker).
    func raw(_ shape: LoggedShape, reason: String, device: DeviceUsage) -> Entry {
        let markers = ((try? LoggedSQLLexer.tokens(shape.first.sql)) ?? []).filter { $0 == .parameter }.count
        var arguments: [PredicateValue] = shape.first.binds.prefix(markers).map { $0.predicateValue ?? .null }
        while arguments.count < markers { arguments.append(.integer(1)) }
        let table = (try? LoggedSQLParser.select(shape.first.sql))?.table
        let entity = shape.first.entity ?? model.entities.first { $0.table == table && $0.parent == nil }?.name
        var workload = WorkloadSpec(name: "", kind: .sql, entity: entity, sql: shape.first.sql, sqlArguments: arguments, reason: reason)
        workload.weight = Double(shape.runs)
        workload.device = device
        return Entry(shape: shape, workload: workload, rawReason: reason)
    }

    /// `log-3-photo-fetch`, `log-4-photo-count`, `log-5-sql`.
    static func name(_ entry: Entry, number: Int, written: String? = nil) -> String {
        let w = entry.workload
        let what: String
        switch (w.kind, w.resultType) {
        case (.sql, _): what = "sql"
        case (.append, _): what = "append"
        case (.update, _): what = "update"
        case (.delete, _): what = "delete"
        case (.fetchedResults, _): what = "controller"
        case (_, .count): what = "count"
        case (_, .objectIDs): what = "ids"
        case (_, .dictionaries): what = "dictionaries"
        default: what = w.batchSize > 0 ? "batched" : "fetch"
        }
        let entity = (w.entity ?? (entry.shape.kind == .write ? written : nil) ?? "").lowercased().filter { $0.isLetter || $0.isNumber }
        return "log-\(number)" + (entity.isEmpty ? "" : "-" + String(entity.prefix(30))) + "-" + what
    }
}
