import Foundation
import SchemaLabEngine

/// A CSV file the lab writes, as its columns (`CSVColumn`): the one definition its writer
/// and its reader share.
///
/// Reading goes by header name, not position: columns the table does not know are skipped
/// (a file written by a later version, with a column added, still reads), and a column the
/// table knows but the file lacks leaves the row's default (an older file, without a
/// column added since). Only the ``required`` columns, the ones that say which row is
/// which, must be there. A field that is not a value of its column, or a row with another
/// number of fields than the header, is an error naming the file, the row and the column:
/// nothing is dropped silently.
package struct CSVTable<Row>: Sendable {
    /// The columns, in the order they are written.
    package let columns: [CSVColumn<Row>]
    /// The columns a file must have to be read.
    package let required: Set<String>

    package init(_ columns: [CSVColumn<Row>], required: Set<String>) {
        precondition(Set(columns.map(\.name)).count == columns.count, "a CSV table names a column twice: a bug in its definition")
        precondition(required.isSubset(of: columns.map(\.name)), "a required column is not a column of the table: a bug in its definition")
        self.columns = columns
        self.required = required
    }

    /// The header, as written.
    package var header: [String] { columns.map(\.name) }

    /// The fields of one row.
    package func fields(_ row: Row) -> [String] { columns.map { $0.format(row) } }

    /// One row's line of text, with its line end.
    package func record(_ row: Row) -> String { CSVWriter.record(fields(row)) }

    /// The file's whole text: the header and `rows`.
    package func text(_ rows: some Sequence<Row>) -> String {
        var writer = CSVWriter(header: header)
        for row in rows { writer.append(fields(row)) }
        return writer.text
    }

    /// The text of the column `name` for `row`, as the file holds it (nil: no such column).
    package func field(_ name: String, of row: Row) -> String? { column(name)?.format(row) }

    /// The column of this name.
    package func column(_ name: String) -> CSVColumn<Row>? { columns.first { $0.name == name } }

    /// The rows of `text`, each begun as `blank` and filled by header name; `file` names the
    /// file in errors (a bad-input ``FileError``).
    package func rows(in text: String, file: String, blank: Row) throws(FileError) -> [Row] {
        let records = CSVWriter.parse(text)
        guard let header = records.first, !(header.count == 1 && header[0].isEmpty) else {
            throw FileError(path: file, message: "\(file) is empty: it has no header", isBadInput: true)
        }
        let missing = columns.map(\.name).filter { required.contains($0) && !header.contains($0) }
        guard missing.isEmpty else {
            throw FileError(path: file, message: "\(file) has no column \(missing.joined(separator: ", "))", isBadInput: true)
        }
        if let twice = Dictionary(grouping: header, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw FileError(path: file, message: "\(file) names the column \(twice) twice", isBadInput: true)
        }
        // Each position of the file's header: the column that reads it, or nil to skip it.
        let readers = header.map { name in column(name).flatMap { $0.parse == nil ? nil : $0 } }
        var rows: [Row] = []
        rows.reserveCapacity(records.count - 1)
        for (index, record) in records.dropFirst().enumerated() {
            if record.count == 1 && record[0].isEmpty && index == records.count - 2 { continue }  // a blank last line
            guard record.count == header.count else {
                throw FileError(
                    path: file, message: "\(file), row \(index + 1): \(record.count) fields, the header has \(header.count)",
                    isBadInput: true)
            }
            var row = blank
            for (field, reader) in zip(record, readers) {
                guard let reader, let parse = reader.parse else { continue }
                guard parse(&row, field) else {
                    throw FileError(
                        path: file,
                        message: "\(file), row \(index + 1), column \(reader.name): '\(field)' is not \(reader.expected)",
                        isBadInput: true)
                }
            }
            rows.append(row)
        }
        return rows
    }

    /// The rows of the file at `path` (``rows(in:file:blank:)``); a file that cannot be read
    /// is a bad-input error.
    package func read(path: String, blank: Row) throws(FileError) -> [Row] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            let why = FileManager.default.fileExists(atPath: path) ? "" : ": no such file"
            throw FileError(path: path, message: "cannot read \(path)\(why)", isBadInput: true)
        }
        return try rows(in: text, file: path, blank: blank)
    }
}
