import Foundation
import Testing

@testable import SchemaLabEngine

/// A date argument keeps what a Date holds: Core Data stores seconds since 2001 as a double,
/// so a fraction is not cut to milliseconds (an upper bound `…52.0256Z` read as `.025` loses rows).
@Suite("ISO 8601 instants keep every digit of their fraction")
struct InstantTests {
    @Test(
        "instants read as seconds since 2001",
        arguments: [
            ("2001-01-01T00:00:00Z", 0.0),
            ("2001-01-01T00:00:52.0256Z", 52.0256),
            ("2001-01-01T01:00:00+01:00", 0.0),
            ("2001-01-01T00:00:00-0130", 5400.0),
            ("2000-12-31T23:59:59.5Z", -0.5),
            (
                "2024-05-01T12:30:52.123456789Z",
                Double(CivilDate.daysSince2001(year: 2024, month: 5, day: 1) * 86_400 + 45_052) + 0.123456789
            ),
        ])
    func reads(_ text: String, _ seconds: Double) {
        #expect(CivilDate.instant(text) == seconds, "\(text)")
    }

    @Test(
        "what is not an instant is refused",
        arguments: [
            "2001-01-01", "2001-01-01T00:00:00", "2001-13-01T00:00:00Z", "2001-01-01T00:00:00.Z", "2001-01-01T24:00:00Z",
            "2001-01-01T00:00:00Zx",
        ])
    func refuses(_ text: String) {
        #expect(CivilDate.instant(text) == nil, "\(text)")
    }

    @Test("an instant is written with the digits that read back as the same double")
    func roundTrip() {
        for seconds in [0.0, 52.0256, -0.5, 738_000_000.125, 738_000_000.0256, 7.5e8 + 1.0 / 3.0, -3_155_760_000.75] {
            let text = CivilDate.instantText(seconds)
            #expect(CivilDate.instant(text) == seconds, "\(seconds) -> \(text)")
        }
        #expect(CivilDate.instantText(52.0256) == "2001-01-01T00:00:52.0256Z")
        #expect(CivilDate.instantText(0) == "2001-01-01T00:00:00Z")
    }

    @Test("a scenario's date argument binds the whole fraction")
    func scenarioArgument() throws {
        let text = """
            {"format": 1, "name": "d",
             "variants": [{"name": "A", "entities": [{"name": "E", "attributes": [{"name": "at", "type": "date"}]}]}],
             "dataset": {"seed": 1, "entity": "E", "counts": [10],
                         "fields": [{"field": "at", "generator": {"kind": "dateRange", "from": "2001-01-01", "to": "2001-01-02"}}]},
             "workloads": [{"name": "f", "kind": "fetch", "predicate": "at < %@", "arguments": [{"date": "2001-01-01T00:00:52.0256Z"}]}]}
            """
        let scenario = try ScenarioDecoder.decode(text: text, file: "d.json")
        #expect(scenario.workloads[0].predicate?.arguments == [.date(52.0256)])
    }
}
