import Testing
@testable import SchemaLabEngine

/// The numbers a case reports: robust statistics of its samples, and instructions read from
/// callgrind's output.
@Suite("Measurement: statistics and instruction counts")
struct MeasurementTests {
    @Test("Statistics: MAD, a bootstrap interval around the median, outliers counted")
    func statistics() {
        let s = Statistics([10, 11, 12, 13, 14, 100])
        #expect(s.median == 12.5 && s.mad == 1.5)
        #expect(s.outliers == 1)
        #expect(s.ciLow <= s.median && s.median <= s.ciHigh && s.ciLow >= 10 && s.ciHigh <= 100)
        #expect(Statistics([10, 11, 12, 13, 14, 100]) == s, "the same samples give the same interval")
        #expect(Statistics([5]).ciLow == 5 && Statistics([5]).outliers == 0)
    }

    @Test("The callgrind parser sums libsqlite3's self cost and leaves out the cost of calls")
    func callgrindParser() {
        let text = """
            events: Ir
            ob=/usr/lib/libsqlite3.so.0
            fl=sqlite3.c
            fn=sqlite3VdbeExec
            10 100
            cob=/app/schemalab
            cfn=callback
            calls=1 20
            12 5000
            13 50
            ob=/app/schemalab
            fn=callback
            20 5000
            totals: 10150
            """
        #expect(InstructionCounter.parse(text) == InstructionCount(total: 10150, sqlite: 150))
        #expect(InstructionCounter.parse("events: Ir\n") == nil)
    }
}
