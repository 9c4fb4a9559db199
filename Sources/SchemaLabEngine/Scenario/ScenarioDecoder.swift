import Foundation
import SchemaLabCoreData
import SchemaLabSQLite

/// Reads a scenario file into a ``Scenario``, checking every key, type and name.
///
/// Errors are ``ScenarioError``s naming the file and the JSON path.
public enum ScenarioDecoder {
    /// Reads and decodes the file at `path`.
    public static func load(path: String) throws -> Scenario {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let why = !exists ? "no such file" : isDirectory.boolValue ? "it is a directory, not a scenario file" : "it cannot be read"
            throw ScenarioError(file: path, path: "$", message: "cannot read the file: \(why)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ScenarioError(file: path, path: "$", message: "the file is not UTF-8 text")
        }
        return try decode(text: text, file: path, sha256: SHA256.hex(Array(data)))
    }

    /// Checks a scenario built in Swift as a file is checked: its text (``ScenarioEncoder``)
    /// is decoded, so every rule of the decoder applies, and an error names the part by the
    /// JSON path it has in that text (`$.workloads[2].sort[0]`). Returns the decoded scenario:
    /// the same one, when nothing was wrong, with the text's SHA-256.
    public static func check(_ scenario: Scenario) throws -> Scenario {
        try decode(text: ScenarioEncoder.text(scenario), file: scenario.file)
    }

    /// Decodes scenario JSON text; `file` is used in error messages.
    public static func decode(text: String, file: String, sha256: String? = nil) throws -> Scenario {
        let root: JSONValue
        do {
            root = try JSONParser.parse(text)
        } catch let e as JSONSyntaxError {
            throw ScenarioError(file: file, path: "$", message: "invalid JSON at line \(e.line), column \(e.column): \(e.message)")
        }
        let node = JSONNode(value: root, file: file)
        let o = try node.object(allowed: ScenarioKeys.scenario)
        let schemaReference = try o.optional("$schema")?.string()  // the JSON Schema editors check the file against
        let formatNode = try o.required("format")
        let format = try formatNode.int()
        guard format == Scenario.formatVersion else {
            throw formatNode.error("unsupported format \(format): this build reads format \(Scenario.formatVersion)")
        }
        let variants = try o.required("variants").nonEmptyArray().map(decodeVariant)
        try checkUnique(variants.map { ($0.name, $0.path) }, what: "variant", file: file)
        let workloadNodes = try o.required("workloads").nonEmptyArray()
        var workloads = try workloadNodes.map(decodeWorkload)
        try checkUnique(workloads.map { ($0.name, $0.path) }, what: "workload", file: file)
        let measurement = try o.optional("measurement").map(decodeMeasurement) ?? MeasurementSpec()
        for i in workloads.indices {
            if let node = try workloadNodes[i].object(allowed: ScenarioKeys.workload).optional("measurement") {
                workloads[i].measurement = try decodeMeasurement(node, over: measurement)
            }
        }
        let reference = try decodeReference(o, variants: variants)
        try checkWorkloadReferences(workloads, variants: variants, file: file)
        let assertions = try o.optional("assertions")?.array().map(decodeAssertion) ?? []
        try checkAssertions(assertions, variants: variants, workloads: workloads, file: file)
        let claims = try o.optional("claims")?.array().map { try decodeClaim($0, reference: reference) } ?? []
        try checkClaims(claims, variants: variants, workloads: workloads, file: file)
        return Scenario(
            format: format,
            name: try o.required("name").label(),
            description: try o.optional("description")?.string() ?? "",
            variants: variants,
            dataset: try decodeDataset(o.required("dataset")),
            workloads: workloads,
            measurement: measurement,
            pragmas: try o.optional("pragmas").map(decodePragmas) ?? [],
            reference: reference,
            assertions: assertions,
            claims: claims,
            schemaReference: schemaReference,
            file: file,
            sha256: sha256 ?? SHA256.hex(Array(text.utf8))
        )
    }

    /// Names that must be unique (variants', workloads'), each with its part's JSON path.
    private static func checkUnique(_ names: [(name: String, path: String)], what: String, file: String) throws {
        var seen = Set<String>()
        for (name, path) in names where !seen.insert(name).inserted {
            throw ScenarioError(file: file, path: path + ".name", message: "duplicate \(what) name '\(name)'")
        }
    }

    /// `reference`: a variant's name; the first variant when absent.
    private static func decodeReference(_ o: JSONObject, variants: [VariantSpec]) throws -> String {
        guard let r = o.optional("reference") else { return variants[0].name }
        let reference = try r.label()
        guard variants.contains(where: { $0.name == reference }) else {
            throw r.error("no variant named '\(reference)' (variants: \(variants.map(\.name).joined(separator: ", ")))")
        }
        return reference
    }

    /// A workload's `variants` are variants, and its `agreesWith` another workload.
    private static func checkWorkloadReferences(_ workloads: [WorkloadSpec], variants: [VariantSpec], file: String) throws {
        for w in workloads {
            for (i, v) in (w.variants ?? []).enumerated() where !variants.contains(where: { $0.name == v }) {
                throw ScenarioError(
                    file: file, path: w.path + ".variants[\(i)]",
                    message: "no variant named '\(v)' (variants: \(variants.map(\.name).joined(separator: ", ")))")
            }
            guard let other = w.agreesWith else { continue }
            guard workloads.contains(where: { $0.name == other }), other != w.name else {
                throw ScenarioError(file: file, path: w.path + ".agreesWith", message: "no other workload named '\(other)'")
            }
        }
    }

    /// An assertion names a workload, and variants that exist and that the workload runs in.
    private static func checkAssertions(
        _ assertions: [AssertionSpec], variants: [VariantSpec], workloads: [WorkloadSpec], file: String
    ) throws {
        for a in assertions {
            guard let w = workloads.first(where: { $0.name == a.workload }) else {
                throw ScenarioError(file: file, path: a.path + ".workload", message: "no workload named '\(a.workload)'")
            }
            var named = a.variant.map { [$0] } ?? []
            if case .sameResults(let list) = a.kind { named = list }
            if case .faster(let than) = a.kind { named.append(than) }
            for v in named {
                guard variants.contains(where: { $0.name == v }) else {
                    throw ScenarioError(
                        file: file, path: a.path,
                        message: "no variant named '\(v)' (variants: \(variants.map(\.name).joined(separator: ", ")))")
                }
                if let only = w.variants, !only.contains(v) {
                    throw ScenarioError(
                        file: file, path: a.path,
                        message: "workload '\(w.name)' does not run in variant '\(v)' (its variants: \(only.joined(separator: ", ")))")
                }
            }
        }
    }
}
