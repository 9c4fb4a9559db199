import Foundation
import Testing
@testable import SchemaLab
import SchemaLabTestSupport

/// Every input the fuzz targets ever found a problem with (`Fuzz/crashes/<target>/`, kept by
/// `make fuzz`) replayed through its target: each must now get a result or a clear error.
/// A crash would stop this test process, so each input runs in-process only after it was fixed.
@Suite("Fuzzing: the crash regressions and the targets on their seeds")
struct FuzzRegressionReplayTests {
    static let crashes = TestSupport.packageRoot + "/Fuzz/crashes"

    @Test("Every kept crashing input gets a result or a clear error", arguments: FuzzTarget.allCases)
    func replay(_ target: FuzzTarget) throws {
        let dir = Self.crashes + "/" + target.rawValue
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/" + file)))
            #expect(throws: Never.self, "\(target.rawValue)/\(file)") { _ = try target.run(bytes) }
        }
    }

    @Test("A model file that is not UTF-8 is refused at its line (Foundation's parser trapped on it)")
    func invalidUTF8() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.crashes + "/model-xml/invalid-utf8-in-a-name-minimized")))
        guard case .refused(let message) = try FuzzTarget.modelXML.run(bytes) else {
            Issue.record("an input that is not UTF-8 was accepted")
            return
        }
        #expect(message.contains(":7: not UTF-8 text: byte ") && message.contains("(0xFF)"), "\(message)")
    }

    @Test("Each target accepts some of its seeds and refuses garbage clearly")
    func seeds() throws {
        let scenario = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestSupport.tinyScenario)))
        #expect(try FuzzTarget.scenario.run(scenario) == .accepted)
        #expect(try FuzzTarget.predicate.run(Array("age > 3 AND ANY pets.name BEGINSWITH[cd] 'r'".utf8)) == .accepted)
        let model = TestSupport.packageRoot + "/Tests/Fixtures/Models"
        let contents = try FileManager.default.subpathsOfDirectory(atPath: model).filter { $0.hasSuffix("contents") }.sorted()
        #expect(!contents.isEmpty)
        var accepted = 0
        for path in contents {
            if try FuzzTarget.modelXML.run([UInt8](Data(contentsOf: URL(fileURLWithPath: model + "/" + path)))) == .accepted {
                accepted += 1
            }
        }
        #expect(accepted > 0)
        for target in FuzzTarget.allCases {
            for garbage in [[], [0xFF, 0x00, 0x7B], Array("{\"format\": 1".utf8), Array("SQLite format 3\0".utf8)] as [[UInt8]] {
                guard case .refused = try target.run(garbage) else {
                    Issue.record("\(target.rawValue) accepted \(garbage)")
                    continue
                }
            }
        }
    }
}

/// The model reader's stated limits: size and nesting.
@Suite("Models from elsewhere: limits")
struct ModelLimitTests {
    @Test("A contents file past 32 MB, or nested past 64 levels, is refused in words")
    func limits() throws {
        let big =
            Data("<?xml version=\"1.0\"?><model>".utf8) + Data(repeating: 0x20, count: ModelXMLReader.maxBytes) + Data("</model>".utf8)
        #expect {
            _ = try ModelXMLReader.read(data: big, file: "big/contents")
        } throws: { error in
            "\(error)".contains("more than the 33554432 a model's contents file may have")
        }
        let deep =
            "<?xml version=\"1.0\"?><model>" + String(repeating: "<userInfo>", count: 100_000)
            + String(repeating: "</userInfo>", count: 100_000) + "</model>"
        #expect {
            _ = try ModelXMLReader.read(data: Data(deep.utf8), file: "deep/contents")
        } throws: { error in
            "\(error)".contains("elements nested deeper than 64 levels")
        }
    }
}
