import Foundation
import Testing

@testable import SchemaLabCoreData
@testable import SchemaLabEngine
@testable import SchemaLabSQLite

/// UUID and binary arguments: `{"uuid": ...}` is the 16 bytes Core Data stores for a UUID
/// attribute, `{"base64": ...}` any bytes; both bind as a BLOB, and a data set's `choice`,
/// `cycle` or `constant` can hold them, so that a request for one finds rows.
@Suite("UUID and binary arguments and values")
struct BinaryArgumentTests {
    static func scenario(arguments: String, values: String = #"[{"uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}]"#) -> String {
        """
        {"format": 1, "name": "b",
         "variants": [{"name": "A", "entities": [{"name": "E", "attributes": [{"name": "key", "type": "binary"}]}]}],
         "dataset": {"seed": 1, "entity": "E", "counts": [10],
                     "fields": [{"field": "key", "generator": {"kind": "choice", "values": \(values)}}]},
         "workloads": [{"name": "f", "kind": "fetch", "predicate": "key IN %@", "arguments": [\(arguments)]}]}
        """
    }

    @Test("a UUID is its 16 bytes in order; its text is written back upper case, and reads back the same")
    func uuid() throws {
        let bytes = try #require(BinaryText.uuidBytes("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"))
        #expect(bytes.count == 16 && bytes[0] == 0xE6 && bytes[15] == 0x5F)
        #expect(BinaryText.uuidText(bytes) == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        for bad in ["E621E1F8C36C495A93FC0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "G621E1F8-C36C-495A-93FC-0C247A3E6E5F"] {
            #expect(BinaryText.uuidBytes(bad) == nil, "\(bad)")
        }
    }

    @Test("arguments decode to bytes, the data set's values to BLOBs, and the scenario writes them back the same")
    func decodeAndEncode() throws {
        let text = Self.scenario(arguments: #"[{"uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}, {"base64": "AAEC"}]"#)
        let scenario = try ScenarioDecoder.decode(text: text, file: "b.json")
        let uuid = BinaryText.uuidBytes("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        #expect(scenario.workloads[0].predicate?.arguments == [.array([.bytes(uuid), .bytes([0, 1, 2])])])
        #expect(scenario.dataset.fields[0].generator == .choice(values: [.blob(uuid)], weights: [1]))
        let written = ScenarioEncoder.text(scenario)
        #expect(
            written.contains(#"{"uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#) && written.contains(#"{"base64": "AAEC"}"#), "\(written)"
        )
        #expect(try ScenarioDecoder.decode(text: written, file: "b.json") == scenario)
    }

    @Test(
        "a bad UUID, bad base64 or an argument object with two keys is an error at its JSON path",
        arguments: [
            (#"[{"uuid": "E621E1F8"}]"#, "$.workloads[0].arguments[0][0].uuid: expected a UUID"),
            (#"[{"base64": "%%%"}]"#, "$.workloads[0].arguments[0][0].base64: expected bytes in standard base64"),
            (
                #"[{"uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "base64": "AAEC"}]"#,
                "$.workloads[0].arguments[0][0]: an argument object has one key"
            ),
        ])
    func errors(_ arguments: String, _ message: String) {
        #expect {
            try ScenarioDecoder.decode(text: Self.scenario(arguments: arguments), file: "b.json")
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
