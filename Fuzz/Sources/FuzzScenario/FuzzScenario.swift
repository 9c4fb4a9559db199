import FuzzDriver

/// The executable's entry (SwiftPM links `main` to `<module>_main`): libFuzzer on `FuzzTarget.scenario`.
@_cdecl("FuzzScenario_main")
public func fuzzScenarioMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(.scenario, argc, argv)
}
