/// The scenario format's keys, object by object, and the words its enumerations take that
/// are not a Swift enum's raw values: the tables the decoder checks a document against (an
/// object's allowed keys), the order ``ScenarioEncoder`` writes keys in, and what
/// `ScenarioSchemaTests` compares with `scenarios/schema.json` (each object's `properties`,
/// each enumeration's `enum`), so that the decoder, the encoder and the schema cannot drift.
///
/// An object's keys are listed in the order a written scenario has them (the order of
/// docs/scenario-format.md); an "unknown key" message lists them in that order.
enum ScenarioKeys {
    // MARK: The document and its variants

    static let scenario = [
        "$schema", "format", "name", "description", "variants", "dataset", "workloads", "measurement", "pragmas", "reference",
        "assertions", "claims",
    ]
    /// In the order the edits apply.
    static let variant = [
        "name", "description", "extends", "entities", "indexes", "addEntities", "addAttributes", "moveAttributes", "copyAttributes",
        "removeAttributes", "addRelationships", "dropIndexes", "addIndexes", "addUniquenessConstraints", "counters",
        "persistentHistory",
    ]
    static let entity = ["name", "parent", "abstract", "attributes", "relationships", "uniquenessConstraints"]
    static let attribute = [
        "name", "type", "optional", "default", "derivation", "canonicalOf", "allowsExternalStorage", "externalStorageThreshold",
        "preserveAfterDeletion",
    ]
    static let relationship = ["name", "destination", "toMany", "ordered", "inverse", "deleteRule"]
    static let index = ["name", "entity", "elements", "kind", "unique", "style", "query"]
    /// An index element written as an object.
    static let indexElement = ["key", "order"]
    static let addedAttribute = ["entity", "attribute"]
    static let addedRelationship = ["entity", "relationship"]
    static let addedConstraint = ["entity", "attributes"]
    /// `moveAttributes` and `copyAttributes`.
    static let transfer = ["from", "to", "names"]
    /// `removeAttributes` and `dropIndexes`.
    static let memberRef = ["entity", "name"]
    static let counter = ["entity", "key", "count", "of", "by"]

    /// An index element's `order`, `style` and `query`: the first is the default.
    static let indexOrders = ["ascending", "descending"]
    static let indexStyles = ["fetchIndex", "attribute"]
    static let indexQueries = ["perAttribute", "combined"]

    // MARK: The data set

    static let dataset = ["seed", "entity", "counts", "fields", "related"]
    /// `counts` written as a sweep.
    static let sweep = ["from", "to", "steps", "scale"]
    static let field = ["field", "fields", "generator", "optional", "nulls"]
    static let related = ["relationship", "for", "optional", "pool", "popularity", "fanOut", "fields", "related"]
    static let pool = ["count", "fields"]
    static let popularity = ["zipf"]
    /// A cluster of the `clusteredLocation` generator.
    static let cluster = ["latitude", "longitude", "sigma", "weight", "label"]

    /// Each generator kind and its keys besides `kind`.
    static let generators: [(kind: String, keys: [String])] = [
        ("sequence", ["start", "step", "prefix"]),
        ("uniformInt", ["min", "max"]),
        ("uniformDouble", ["min", "max"]),
        ("normal", ["mean", "stddev", "min", "max"]),
        ("pareto", ["scale", "alpha", "max", "roundAbove", "roundTo"]),
        ("choice", ["values", "weights", "zipf"]),
        ("cycle", ["values"]),
        ("text", ["minLength", "maxLength", "words"]),
        ("uuid", ["prefix", "suffix"]),
        ("dateRange", ["from", "to"]),
        ("clusteredLocation", ["clusters", "scatter", "scatterLabels"]),
        ("bool", ["probability"]),
        ("bytes", ["minLength", "maxLength"]),
        ("constant", ["value"]),
        ("countOf", ["relationship"]),
        ("parentField", ["field"]),
        ("derived", ["from", "function"]),
        ("wordsOf", ["field"]),
        ("word", []),
        ("joinedOf", ["relationship", "field", "separator"]),
        ("position", []),
    ]

    /// The generator kinds.
    static var generatorKinds: [String] { generators.map(\.kind) }

    /// A generator object's keys: `kind`, then the kind's.
    static func generator(_ kind: String) -> [String] {
        ["kind"] + (generators.first { $0.kind == kind }?.keys ?? [])
    }

    // MARK: Workloads

    /// Every key a workload of some kind takes.
    static let workload = [
        "name", "kind", "entity", "relationship", "relate", "operation", "positionKey", "sql", "predicate", "arguments", "reason", "set",
        "verify", "sort", "sectionKey", "batchSize", "fetchLimit", "fetchOffset", "pageSize", "resultType", "propertiesToFetch",
        "groupBy", "having", "havingArguments", "distinct", "includesPropertyValues", "returnsObjectsAsFaults", "prefetch",
        "keyBinding", "touch", "touchKeys", "reduce", "boxes", "count", "saveEvery", "source", "mergePolicy", "feed", "key",
        "strategy", "mergeBatch", "reads", "journalMode", "deliver", "history", "agreesWith", "variants", "weight", "device",
        "measurement",
    ]
    /// The keys every kind takes.
    static let everyWorkload = ["name", "kind", "variants", "weight", "device", "measurement"]
    /// The fetch request's keys, which both fetch kinds take.
    static let fetchRequest = [
        "entity", "predicate", "arguments", "sort", "batchSize", "fetchLimit", "fetchOffset", "resultType", "propertiesToFetch",
        "groupBy", "having", "havingArguments", "distinct", "includesPropertyValues", "returnsObjectsAsFaults", "prefetch",
        "keyBinding", "touch", "touchKeys", "reduce", "agreesWith",
    ]
    /// The keys only a fetch takes, and only a fetched-results controller.
    static let fetchOnly = ["pageSize", "boxes"]
    static let fetchedResultsOnly = ["sectionKey"]

    /// The keys a workload of this kind takes: every kind's, and the write kind's own
    /// (``WorkloadKind/writeKeys``) or the fetch request's.
    static func workload(_ kind: WorkloadKind) -> [String] { workloadByKind[kind] ?? [] }

    private static let workloadByKind: [WorkloadKind: [String]] = Dictionary(
        uniqueKeysWithValues: WorkloadKind.allCases.map { kind in
            let own = kind.writeKeys ?? fetchRequest + (kind == .fetch ? fetchOnly : fetchedResultsOnly)
            return (kind, workload.filter { everyWorkload.contains($0) || own.contains($0) })
        })

    /// The keys no fetch kind takes.
    static let writeOnly = workload.filter { !workload(.fetch).contains($0) && !workload(.fetchedResults).contains($0) }

    /// A sort descriptor written as an object.
    static let sort = ["key", "ascending", "comparator"]
    /// An expression of `propertiesToFetch` or `reduce`.
    static let expression = ["name", "function", "key"]
    /// A date argument, `{"date": "2014-10-01T00:00:00Z"}`.
    static let dateArgument = ["date"]
    /// The object arguments, each one key: a date, a UUID, bytes in base64.
    static let objectArgument = ["date", "uuid", "base64"]
    static let verify = ["predicate", "arguments"]
    /// A `set` value that replaces a word of a separated list.
    static let wordReplacement = ["replaceWord", "with", "separator"]
    /// A workload's `device`: what the app's log says it cost on the device.
    static let device = ["runs", "rows", "seconds"]
    static let feed = ["size", "existing", "seed"]
    static let deliver = ["mode", "entity", "sort", "held", "shows", "filter"]
    static let fetchHistory = ["after", "last", "entity", "object", "author", "updatedProperties", "filterIn"]
    static let deleteHistory = ["before", "keep"]
    static let boxes = ["count", "seed", "keys", "selectivity"]
    static let selectivity = ["min", "max"]
    /// `touch` written as a word (a number is a count).
    static let touchWords = ["all", "none", "scroll", "array"]

    // MARK: Measurement, assertions, claims

    static let measurement = ["warmup", "repetitions", "maxSeconds", "timeout"]

    /// The pragmas a scenario may set, in the order of their names, with the values each
    /// accepts (nil: any integer).
    static let pragmas: [(name: String, values: [String]?)] = [
        ("auto_vacuum", ["none", "full", "incremental"]),
        ("cache_size", nil),
        ("journal_mode", ["delete", "truncate", "persist", "memory", "wal", "off"]),
        ("locking_mode", ["normal", "exclusive"]),
        ("mmap_size", nil),
        ("page_size", nil),
        ("synchronous", ["off", "normal", "full", "extra"]),
        ("temp_store", ["default", "file", "memory"]),
    ]

    /// The keys an assertion states one of.
    static let assertionKinds = ["usesIndex", "noTempBTree", "usesTempBTree", "noFullScan", "maxStatements", "sameResults", "fasterThan"]
    static let assertion = ["workload", "variant"] + assertionKinds + ["description"]

    static let claim = ["id", "source", "claim", "case", "against", "metric", "expect", "size", "description"]
    static let claimSource = ["document", "year", "where"]
    /// A claim's `case` and `against`.
    static let claimSide = ["variant", "workload"]
    static let claimExpectation = ["direction", "ratio", "figure", "tolerance"]
}
