import SchemaLabSQLite

/// A history request (`NSPersistentHistoryChangeRequest`): the transactions and changes after
/// a token or a date, all of them, or tailored as the iOS 13 fetch request on the history's
/// CHANGE entity allows (the changes of some entities, of one object, of one author).
package struct HistoryRequest {
    /// Where the history starts: after a transaction (its token), after a date, or from the start.
    package var start: HistorySQL.Start
    /// Only the changes of these entities (with their sub-entities); empty: every entity.
    package var entities: [EntityDescription]
    /// Only the changes of this object (its entity is the first of ``entities``).
    package var objectID: Int64?
    /// Only the transactions this author wrote.
    package var author: String?

    /// A request; with no filter, the whole history after `start`.
    package init(start: HistorySQL.Start, entities: [EntityDescription] = [], objectID: Int64? = nil, author: String? = nil) {
        self.start = start
        self.entities = entities
        self.objectID = objectID
        self.author = author
    }

    /// Tailored: it names an entity or an object, so only the CHANGE entity is fetched.
    package var isTailored: Bool { !entities.isEmpty || objectID != nil }

    /// The entity numbers the changes may carry: each entity's and its sub-entities'.
    var entityNumbers: [Int64] {
        var out: [Int64] = []
        for e in entities {
            for n in [e.number] + e.model.subentityNumbers where !out.contains(Int64(n)) { out.append(Int64(n)) }
        }
        return out
    }

    /// The statements the request runs, with their bindings: the transactions (unless
    /// tailored), then the changes.
    package var statements: [(sql: String, bindings: [SQLValue])] {
        let start = self.start.bindings
        let author = self.author.map { [SQLValue.text($0)] } ?? []
        let numbers = entityNumbers
        var out: [(String, [SQLValue])] = []
        if !isTailored {
            out.append((HistorySQL.fetchTransactions(after: self.start, author: self.author != nil), start + author))
        }
        out.append(
            (
                HistorySQL.fetchChanges(after: self.start, entities: numbers.count, object: objectID != nil, author: self.author != nil),
                start + author + numbers.map { .integer($0) } + (objectID.map { [.integer($0)] } ?? [])
            ))
        return out
    }
}

/// One transaction of the history, with its changes (those the request asked for).
package struct HistoryTransaction {
    /// Its Z_PK: the token of the history up to it.
    package var token: Int64
    /// Seconds since 2001-01-01; nil when the request was tailored (changes only).
    package var timestamp: Double?
    package var author: String?
    package var contextName: String?
    package var changes: [HistoryChange] = []
}

/// One change: what happened to which object, and (for an update) its ZCOLUMNS mask.
package struct HistoryChange {
    package var type: HistorySQL.ChangeType
    package var entity: EntityDescription
    package var objectID: Int64
    package var columns: [UInt8]?

    /// The attributes an update changed, as its mask records them.
    package var updatedAttributes: [Int] { columns.map { HistoryColumns(entity: entity).attributes(in: $0) } ?? [] }
}
