import Foundation

/// Validates JSON documents against a JSON Schema with Python's `jsonschema` package
/// (`Draft202012Validator`): a validator written independently of the scenario decoder,
/// run once for a whole batch of documents.
package enum JSONSchemaValidator {
    /// One error the validator reports: where (a JSON path such as `$.variants[0].name`) and what.
    package struct Failure: Decodable, CustomStringConvertible {
        package let path: String
        package let message: String
        package var description: String { "\(path): \(message)" }
    }

    /// The verdict on a schema and the documents checked against it.
    package struct Report: Decodable {
        /// Why the schema is not a valid draft 2020-12 schema; nil when it is.
        package let schemaError: String?
        /// The errors of each document, by the path it was given as; empty when it is valid.
        package let documents: [String: [Failure]]
    }

    /// Why the validator could not run.
    package struct Unavailable: Error, CustomStringConvertible {
        package let description: String
    }

    /// The first of `python3` on PATH and `/usr/bin/python3` that can import jsonschema, or nil.
    static let interpreter: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let onPath = path.split(separator: ":").map { $0 + "/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        let candidates = [onPath, "/usr/bin/python3"].compactMap { $0 }
        return candidates.first { candidate in
            guard FileManager.default.isExecutableFile(atPath: candidate),
                let r = try? run(candidate, ["-c", "from jsonschema import Draft202012Validator"])
            else { return false }
            return r.status == 0
        }
    }()

    /// Checks `schema` with `Draft202012Validator.check_schema`, then, when it is valid, every
    /// file in `documents` against it. Throws when no interpreter can import jsonschema.
    package static func validate(schema: String, documents: [String]) throws -> Report {
        guard let python = interpreter else {
            throw Unavailable(
                description:
                    "neither python3 (on PATH) nor /usr/bin/python3 can import jsonschema: run `make setup` (it installs python3-jsonschema)"
            )
        }
        let r = try run(python, ["-c", script, schema] + documents)
        guard r.status == 0 else {
            throw Unavailable(description: "\(python) exited with status \(r.status): \(r.err)")
        }
        do {
            return try JSONDecoder().decode(Report.self, from: Data(r.out.utf8))
        } catch {
            throw Unavailable(description: "unreadable validator output (\(error)): \(r.out.prefix(2000)) \(r.err)")
        }
    }

    /// Prints `{"schemaError": ..., "documents": {file: [{"path", "message"}]}}` on one line.
    static let script = """
        import json, sys
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import SchemaError
        with open(sys.argv[1], encoding="utf-8") as f:
            schema = json.load(f)
        def path(steps):  # the decoder's form: $.variants[0].name
            return "$" + "".join("[%d]" % s if isinstance(s, int) else "." + s for s in steps)
        out = {"schemaError": None, "documents": {}}
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as e:
            out["schemaError"] = path(e.absolute_path) + ": " + e.message
        else:
            validator = Draft202012Validator(schema)
            for name in sys.argv[2:]:
                with open(name, encoding="utf-8") as f:
                    document = json.load(f)
                errors = [{"path": path(e.absolute_path), "message": e.message[:300]} for e in validator.iter_errors(document)]
                out["documents"][name] = sorted(errors, key=lambda e: e["path"])
        print(json.dumps(out))
        """

    /// Runs `executable` and returns its exit status and output.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try TestSupport.runProcess(executable, arguments)
    }
}
