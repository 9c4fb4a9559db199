import Testing
@testable import SchemaLab

@Suite("CSV quoting (RFC 4180)")
struct CSVWriterTests {
    @Test("Plain fields stay bare; commas, quotes and newlines are quoted with quotes doubled")
    func escaping() {
        #expect(CSVWriter.escape("V1+index") == "V1+index")
        #expect(CSVWriter.escape("a,b") == "\"a,b\"")
        #expect(CSVWriter.escape("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVWriter.escape("two\nlines") == "\"two\nlines\"")
    }

    @Test("SQL with commas and quotes round-trips through the writer and the parser")
    func roundTrip() {
        let sql = "SELECT 0, t0.Z_PK FROM ZPHOTO t0 WHERE t0.ZCOUNTRY = 'Côte d''Ivoire' AND x = \"q\""
        var w = CSVWriter(header: ["n", "sql", "detail"])
        w.append(["1", sql, "SCAN t0"])
        w.append(["2", "", "multi\nline, \"quoted\""])
        let parsed = CSVWriter.parse(w.text)
        #expect(parsed == [["n", "sql", "detail"], ["1", sql, "SCAN t0"], ["2", "", "multi\nline, \"quoted\""]])
    }
}
