import SchemaLabSQLite

/// Reading and purging persistent history.
extension ManagedObjectContext {
    /// Runs a history request: the transactions after its start (with author and context
    /// name), then their changes, grouped by transaction in token order. A tailored request
    /// reads the changes only, grouped the same way.
    package func fetchHistory(_ request: HistoryRequest) throws -> [HistoryTransaction] {
        guard objectModel.model.persistentHistory else { throw HistoryOffError(variant: objectModel.model.variant) }
        let statements = request.statements
        var transactions: [HistoryTransaction] = []
        var position: [Int64: Int] = [:]
        if !request.isTailored {
            let s = try db.statement(statements[0].sql)
            try s.bind(statements[0].bindings)
            while try s.step() {
                let token = s.int64(at: 1)
                position[token] = transactions.count
                transactions.append(
                    HistoryTransaction(
                        token: token, timestamp: s.value(at: 2).doubleValue, author: s.value(at: 3).textValue,
                        contextName: s.value(at: 4).textValue))
            }
            s.reset()
        }
        let changes = statements[statements.count - 1]
        let s = try db.statement(changes.sql)
        try s.bind(changes.bindings)
        let byNumber = objectModel.entities
        while try s.step() {
            let number = Int(s.int64(at: 3))
            // A change of an entity this model lacks, or of a type Core Data does not write, is skipped.
            guard number >= 1 && number <= byNumber.count, let type = HistorySQL.ChangeType(rawValue: s.int64(at: 2)) else { continue }
            let token = s.int64(at: 5)
            let columns: [UInt8]? = if case .blob(let bytes) = s.value(at: 6) { bytes } else { nil }
            let change = HistoryChange(
                type: type, entity: byNumber[number - 1], objectID: s.int64(at: 4),
                columns: columns)
            if let i = position[token] {
                transactions[i].changes.append(change)
            } else {
                position[token] = transactions.count
                transactions.append(HistoryTransaction(token: token, changes: [change]))
            }
        }
        s.reset()
        if !request.isTailored { transactions.sort { $0.token < $1.token } }
        return transactions
    }

    /// The token of the last transaction (0: none yet): where a reader that is up to date stands.
    package func lastHistoryToken() throws -> Int64 {
        guard objectModel.model.persistentHistory else { return 0 }
        return try db.scalar("SELECT MAX(Z_PK) FROM \(HistorySQL.transactionTable)").integerValue ?? 0
    }

    /// `deleteHistory(before:)`: a batch delete of the transactions before `start` and, by the
    /// history model's cascade, their changes, in one transaction. Returns the transactions deleted.
    @discardableResult
    package func deleteHistory(before start: HistorySQL.Start) throws -> Int {
        guard objectModel.model.persistentHistory else { throw HistoryOffError(variant: objectModel.model.variant) }
        let purge = HistorySQL.purge(before: start)
        let bindings = start.bindings
        var deleted = 0
        try transaction {
            try db.execute(purge.create)
            try db.execute(purge.delete, bindings)
            deleted = db.changes
            try db.execute(purge.drop)
        }
        return deleted
    }
}

/// A history request on a store without persistent history.
package struct HistoryOffError: Error, CustomStringConvertible {
    package let variant: String
    package var description: String {
        "variant \(variant) has no persistent history (give it \"persistentHistory\": true)"
    }
}
