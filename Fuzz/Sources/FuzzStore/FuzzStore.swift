import FuzzDriver

/// The executable's entry (SwiftPM links `main` to `<module>_main`): libFuzzer on `FuzzTarget.store`.
@_cdecl("FuzzStore_main")
public func fuzzStoreMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(.store, argc, argv)
}
