import Foundation
import SchemaLabCoreData
#if canImport(Glibc)
import Glibc
#endif

/// Refuses, before anything runs, a scenario whose data would not fit: per variant it
/// fills a store with a small sample of the data set, measures the bytes each root row
/// takes in the store file and in the heap (the generated data and the saved objects
/// a context holds), and scales them to the largest size of the run.
///
/// Disk: a run holds a filled store, a scratch copy of it (or a new store an insert
/// fills) and a write-ahead log up to the size of what one transaction writes: three
/// stores' worth, in the temporary directory. Memory: the generated data set and, in
/// an insert (and the fill), every object of the save.
package enum FitCheck {
    /// One variant's estimate at one size.
    package struct Estimate: Sendable, CustomStringConvertible {
        package let variant: String
        package let size: Int
        package let sampleRows: Int
        package let storeBytesPerRow: Double
        package let heapBytesPerRow: Double
        package let diskNeeded: Double
        package let memoryNeeded: Double

        package var description: String {
            "\(variant) at n=\(size): disk \(FitCheck.bytes(diskNeeded)) (3 stores of \(FitCheck.bytes(diskNeeded / 3)), "
                + "\(Int(storeBytesPerRow.rounded())) bytes a row), memory \(FitCheck.bytes(memoryNeeded)) "
                + "(\(Int(heapBytesPerRow.rounded())) bytes a row), measured on a \(sampleRows)-row sample"
        }
    }

    /// The run does not fit: what it needs and what there is.
    package struct TooLarge: Error, CustomStringConvertible, Sendable {
        package let estimate: Estimate
        package let what: String
        package let available: Double
        package let place: String

        package var description: String {
            "the data set does not fit: \(estimate); \(place) has \(FitCheck.bytes(available)) \(what)"
        }
    }

    /// Measures every selected variant on a sample and throws `TooLarge` when the largest
    /// size needs more disk than `workDirectory`'s file system has free, or more memory
    /// than the system has available. Returns the largest estimate. A variant whose sample
    /// cannot be stored (a constraint, say) is left out: its cases will fail with the error.
    @discardableResult
    package static func check(plan: ScenarioPlan, options: RunOptions, workDirectory: String, sampleRows: Int = 200) throws -> Estimate? {
        let sizes = options.sizes ?? plan.scenario.dataset.counts
        guard let size = sizes.max() else { return nil }
        let sample = max(1, min(sampleRows, size))
        var worst: Estimate?
        for (spec, model) in zip(plan.scenario.variants, plan.models) where options.variants?.contains(spec.name) ?? true {
            let path = workDirectory + "/fit-check.sqlite"
            Store.remove(path: path)
            defer { Store.remove(path: path) }
            let h0 = HeapProbe.inUseBytes()
            let sampleData = GeneratedData(spec: plan.scenario.dataset, count: sample)
            let mom = ManagedObjectModel(model)
            let empty: Double, full: Double, h1: Int64
            do {
                let store = try Store.create(path: path, model: model, pragmas: plan.scenario.pragmas)
                empty = try fileBytes(store)
                let context = ManagedObjectContext(store: store, objectModel: mom)
                try InsertWorkload.insertAll(sampleData, placement: try plan.placement(for: mom), into: context)
                try context.save()
                h1 = HeapProbe.inUseBytes()
                full = try fileBytes(store)
                withExtendedLifetime((context, sampleData)) {}
            } catch {
                continue  // a variant that cannot store its data fails in its own cases, with the error
            }
            let perRow = max(0, full - empty) / Double(sample)
            let heapPerRow = Double(max(0, h1 - h0)) / Double(sample)
            let estimate = Estimate(
                variant: spec.name, size: size, sampleRows: sample, storeBytesPerRow: perRow,
                heapBytesPerRow: heapPerRow, diskNeeded: 3 * (empty + perRow * Double(size)),
                memoryNeeded: heapPerRow * Double(size))
            if worst.map({ estimate.diskNeeded + estimate.memoryNeeded > $0.diskNeeded + $0.memoryNeeded }) ?? true {
                worst = estimate
            }
            if let free = freeDisk(workDirectory), estimate.diskNeeded > free {
                throw TooLarge(estimate: estimate, what: "free", available: free, place: workDirectory)
            }
            if let available = availableMemory(), estimate.memoryNeeded > available {
                throw TooLarge(estimate: estimate, what: "available", available: available, place: "memory")
            }
        }
        return worst
    }

    static func fileBytes(_ store: Store) throws -> Double {
        _ = try store.db.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        let pages = try store.db.scalar("PRAGMA page_count").doubleValue ?? 0
        let pageSize = try store.db.scalar("PRAGMA page_size").doubleValue ?? 4096
        return pages * pageSize
    }

    /// Bytes free to this user on the file system holding `path`.
    static func freeDisk(_ path: String) -> Double? {
        var s = statvfs()
        guard statvfs(path, &s) == 0 else { return nil }
        return Double(s.f_bavail) * Double(s.f_frsize)
    }

    /// MemAvailable from /proc/meminfo, in bytes.
    static func availableMemory() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.count >= 2, let kb = Double(fields[1]) { return kb * 1024 }
        }
        return nil
    }

    static func bytes(_ b: Double) -> String {
        let units = ["B", "kB", "MB", "GB", "TB", "PB", "EB"]
        var v = b, i = 0
        while v >= 1000 && i < units.count - 1 { v /= 1000; i += 1 }
        return i == 0 ? "\(Int(v)) B" : String(format: "%.1f", v) + " " + units[i]
    }
}
