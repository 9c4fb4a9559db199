import FuzzDriver

/// The executable's entry (SwiftPM links `main` to `<module>_main`): libFuzzer on `FuzzTarget.log`.
@_cdecl("FuzzLog_main")
public func fuzzLogMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(.log, argc, argv)
}
