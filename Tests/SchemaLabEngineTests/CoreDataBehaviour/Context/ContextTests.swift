import Testing
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

@Suite("The Core Data behaviour model, on a file store")
struct ContextTests {
    func filledStore(_ variant: String, count: Int) throws -> (Store, ManagedObjectModel) {
        let plan = try TestSupport.photosPlan()
        let model = plan.models.first { $0.variant == variant }!
        let mom = ManagedObjectModel(model)
        let dir = try TestSupport.temporaryDirectory()
        let store = try Store.create(path: dir + "/store.sqlite", model: model)
        let context = ManagedObjectContext(store: store, objectModel: mom)
        try InsertWorkload.insertAll(
            GeneratedData(spec: plan.scenario.dataset, count: count),
            placement: try plan.placement(for: mom), into: context)
        try context.save()
        return (store, mom)
    }

    @Test("Save allocates primary keys from Z_PRIMARYKEY and a second save continues after Z_MAX")
    func saveAllocatesKeys() throws {
        let (store, mom) = try filledStore("V2", count: 50)
        #expect(try store.db.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") == .integer(50))
        #expect(try store.db.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 2") == .integer(50))
        let context = ManagedObjectContext(store: store, objectModel: mom)
        let photo = mom.entity("Photo")!
        let o = context.insert(photo, values: [.text("x")])
        try context.save()
        #expect(o.objectID == 51)
        #expect(try store.db.scalar("SELECT Z_OPT FROM ZPHOTO WHERE Z_PK = 51") == .integer(1))
    }

    @Test("A fetch materializes the fetched entity only; reading through the relationship fires one fault")
    func faults() throws {
        let (store, mom) = try filledStore("V2", count: 20)
        let context = ManagedObjectContext(store: store, objectModel: mom)
        let photo = mom.entity("Photo")!
        store.db.resetCounters()
        // Core Data's default: the fetched objects are faults holding their rows.
        let results = try context.execute(
            FetchRequest(entity: photo, sortDescriptors: [], batchSize: 0, prefetch: [], predicate: nil, returnsObjectsAsFaults: true))
        #expect(results.count == 20)
        #expect(store.db.executions == 1)
        let first = try results.object(at: 0)
        // Untouched, a fetched photo keeps its meta's key: no fault object is made for it yet.
        guard case .key(_, let metaKey) = first.related[0] else {
            Issue.record("a fetched object's to-one is a key until the object is realized")
            return
        }
        try context.fireFault(first)
        // Realized (from its row, without SQL), it points at a registered fault, as Core Data's objects do.
        guard case .object(let meta) = first.related[0] else {
            Issue.record("a realized object points at its to-one's fault object")
            return
        }
        #expect(meta.objectID == metaKey && meta === context.related(first, 0))
        #expect(store.db.executions == 1)
        #expect(meta.isFault)
        // A fault made without its row has no room for values: it reads its entity's NULLs.
        #expect(first.fields.pointee.room == .inline)
        #expect(meta.fields.pointee.room == .none)
        #expect(meta.values.count == meta.entity.attributeCount && meta.values.allSatisfy { $0 == .null })
        let likes = KeyPathAccessor(try mom.model.resolve(keyPath: "likes", from: "Photo"), from: photo)
        _ = try context.value(of: first, at: likes)
        #expect(!meta.isFault)
        #expect(store.db.executions == 2)
        // Filled, it has room beside it, holding its row; the shared NULLs stay NULL.
        #expect(meta.fields.pointee.room == .beside)
        #expect(meta.values.contains { $0 != .null })
        #expect((0..<meta.entity.attributeCount).allSatisfy { meta.entity.nullValues[$0] == .null })
        _ = try context.value(of: first, at: likes)
        #expect(store.db.executions == 2, "a fired fault is not fetched again")
    }

    @Test("Prefetching loads the related objects in one IN query instead of one fault each")
    func prefetch() throws {
        let (store, mom) = try filledStore("V2", count: 30)
        let context = ManagedObjectContext(store: store, objectModel: mom)
        let photo = mom.entity("Photo")!
        store.db.resetCounters()
        let results = try context.execute(FetchRequest(entity: photo, prefetch: [[photo.toOne[0]]]))
        #expect(store.db.executions == 2)
        #expect((0..<results.count).allSatisfy { (try? results.object(at: $0)).flatMap { context.related($0, 0) }?.isFault == false })
    }

    @Test("With a batch size, IDs come first and each window loads when first touched")
    func batching() throws {
        let (store, mom) = try filledStore("V1", count: 100)
        let context = ManagedObjectContext(store: store, objectModel: mom)
        let photo = mom.entity("Photo")!
        let date = try mom.model.resolve(keyPath: "date", from: "Photo")
        store.db.resetCounters()
        let results = try context.execute(FetchRequest(entity: photo, sortDescriptors: [(date, true)], batchSize: 30))
        #expect(results.count == 100)
        #expect(store.db.executions == 1)
        _ = try results.object(at: 0)
        _ = try results.object(at: 29)
        #expect(results.batchesLoaded == 1)
        _ = try results.object(at: 30)
        _ = try results.object(at: 99)
        #expect(results.batchesLoaded == 3)
        #expect(store.db.executions == 4)
        // The window keeps the sorted order although its query has no ORDER BY.
        let dates = try (0..<100).map { try results.object(at: $0).values[2].doubleValue! }
        #expect(dates == dates.sorted())
    }
}
