import SchemaLabSQLite
import SchemaLabCoreData

/// Lists kept in order, edited or read `count` parents at a time, in a copy of the filled
/// store (or the store itself for `read`), one save for all of them:
///
/// - where the relationship is ordered (an NSOrderedSet), the context inserts, moves and
///   removes members and the save writes the order keys Core Data would (`OrderKeys`: a
///   new key between its neighbours, an UPDATE only for a key that moved, everything
///   renumbered only when a gap is full);
/// - where it is not, the destination's `positionKey` attribute holds each member's place
///   (0, 1, 2, …) and the workload does what an app does: reads every member's position,
///   sorts, and shifts the positions after the place it changes (one UPDATE per member moved).
///
/// Operations: `read` (each list in order, every member fired), `insertFront`,
/// `insertMiddle`, `append` (a new member), `move` (the last member to the front), `remove`
/// (the middle member deleted). The parents are the entity's first `count` rows. The
/// result is each list's members in order (checked equal across variants). Timed: fetching
/// the parents, faulting the lists, the edits and the save.
package final class ReorderWorkload: Workload {
    package let spec: WorkloadSpec
    let model: ManagedObjectModel
    let parents: FetchRequest
    let index: Int
    let relationship: RelationshipModel
    let destination: EntityDescription
    /// The destination's position attribute, where the relationship is not ordered.
    let position: Int?
    /// The to-one slot of the destination that points back at the parent (one-to-many).
    let inverseSlot: Int?

    init(spec: WorkloadSpec, model: ManagedObjectModel, rootEntity: String) throws(KeyPathError) {
        self.spec = spec
        self.model = model
        let variant = model.model.variant
        let name = spec.entity ?? rootEntity
        guard let parent = model.entity(name) else {
            throw KeyPathError(message: "variant \(variant) has no entity '\(name)'", at: ".entity")
        }
        guard let relationshipName = spec.relationship, let index = parent.toManyIndex(relationshipName) else {
            throw KeyPathError(
                message: "in variant \(variant), \(name) has no to-many relationship '\(spec.relationship ?? "")'", at: ".relationship")
        }
        self.index = index
        let relationship = parent.toMany[index]
        let destination = parent.toManyDestinations[index]
        self.relationship = relationship
        self.destination = destination
        inverseSlot = relationship.inverse.flatMap { destination.toOneIndex($0) }
        if relationship.ordered {
            position = nil
        } else {
            guard let key = spec.positionKey else {
                throw KeyPathError(
                    message:
                        "in variant \(variant), \(name).\(relationshipName) is not ordered: give 'positionKey', the \(destination.name) attribute that holds each member's place",
                    at: ".relationship")
            }
            guard let p = destination.model.attributes.firstIndex(where: { $0.name == key }),
                [.integer16, .integer32, .integer64].contains(destination.model.attributes[p].type)
            else {
                throw KeyPathError(
                    message: "in variant \(variant), \(destination.name) has no integer attribute '\(key)' to hold a member's place",
                    at: ".positionKey")
            }
            position = p
        }
        if case .joinTable = relationship.storage, !relationship.ordered {
            throw KeyPathError(
                message:
                    "in variant \(variant), \(name).\(relationshipName) is many-to-many: a position attribute on \(destination.name) cannot hold one place per list",
                at: ".relationship")
        }
        do {
            parents = try FetchRequest(
                entity: parent, sortDescriptors: [], batchSize: 0, prefetch: [], predicate: nil, fetchLimit: spec.count)
        } catch {
            throw KeyPathError(message: "\(error)")
        }
    }

    package func run(store: Store) throws -> WorkloadOutcome {
        let context = ManagedObjectContext(store: store, objectModel: model)
        var read = 0
        for parent in try context.execute(parents).allObjects() {
            var members = try list(parent, context)
            let n = members.count
            switch spec.operation {
            case .read:
                for m in members { read += try touch(m, context) }
            case .insertFront, .insertMiddle, .append:
                let at = spec.operation == .insertFront ? 0 : spec.operation == .insertMiddle ? n / 2 : n
                let member = context.insert(destination, values: newValues(at: at))
                if relationship.ordered {
                    try context.insertMember(member, into: parent, toMany: index, at: at)
                } else {
                    try shift(members[at...], by: 1, context)
                    if let slot = inverseSlot { context.setRelated(member, slot, to: parent) }
                    context.addRelated(parent, toMany: index, member)
                }
            case .move:
                guard n >= 2 else { continue }
                if relationship.ordered {
                    try context.moveMember(in: parent, toMany: index, from: n - 1, to: 0)
                } else {
                    try shift(members[..<(n - 1)], by: 1, context)
                    try context.set(members[n - 1], attribute: position!, to: .integer(0))
                }
            case .remove:
                guard n >= 1 else { continue }
                let middle = n / 2
                if relationship.ordered {
                    try context.removeMember(in: parent, toMany: index, at: middle)
                } else {
                    try shift(members[(middle + 1)...], by: -1, context)
                }
                try context.delete(members.remove(at: middle))
            }
        }
        if spec.operation != .read { try context.save() }
        return WorkloadOutcome(rows: spec.count, valuesRead: read, keepAlive: context) { try self.signature(store) }
    }

    /// A parent's members in order: the ordered relationship's, or sorted by position (each
    /// member fired to read it, as an app's sort does).
    func list(_ parent: ManagedObject, _ context: ManagedObjectContext) throws -> [ManagedObject] {
        let members = try context.toMany(parent, index)
        guard let position else { return members }
        var keyed: [(Int64, ManagedObject)] = []
        keyed.reserveCapacity(members.count)
        for m in members {
            if m.isFault { try context.fireFault(m) }
            keyed.append((m.values[position].integerValue ?? Int64.max, m))
        }
        keyed.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1.objectID < $1.1.objectID) }
        return keyed.map(\.1)
    }

    /// Adds `delta` to the position of each of `members` (an app's renumbering).
    func shift(_ members: ArraySlice<ManagedObject>, by delta: Int64, _ context: ManagedObjectContext) throws {
        guard let position else { return }
        for m in members {
            try context.set(m, attribute: position, to: .integer((m.values[position].integerValue ?? 0) + delta))
        }
    }

    /// Reads every value of a member (firing it): what showing the list costs.
    func touch(_ m: ManagedObject, _ context: ManagedObjectContext) throws -> Int {
        if m.isFault { try context.fireFault(m) }
        var read = 0
        for i in m.values.indices where try !context.attributeValue(m, i).isNull { read += 1 }
        return read
    }

    /// A new member's values: its strings say it is new, its position is its place.
    func newValues(at place: Int) -> [SQLValue] {
        destination.model.attributes.enumerated().map { i, a in
            if i == position { return .integer(Int64(place)) }
            return a.type == .string ? .text("new") : .null
        }
    }

    /// Each parent's members in order, read back in a new context: the parent's key, then
    /// each member's key and string values.
    func signature(_ store: Store) throws -> ResultSignature {
        let context = ManagedObjectContext(store: store, objectModel: model)
        var rows: [[SQLValue]] = []
        for parent in try context.execute(parents).allObjects() {
            var row: [SQLValue] = [.integer(parent.objectID)]
            for m in try list(parent, context) {
                if m.isFault { try context.fireFault(m) }
                row.append(.integer(m.objectID))
                for (i, a) in destination.model.attributes.enumerated() where a.type == .string && i != position {
                    row.append(m.values[i])
                }
            }
            rows.append(row)
        }
        return ResultSignature.of(rows: rows)
    }
}
