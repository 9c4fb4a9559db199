import FuzzDriver

/// The executable's entry (SwiftPM links `main` to `<module>_main`): libFuzzer on `FuzzTarget.predicate`.
@_cdecl("FuzzPredicate_main")
public func fuzzPredicateMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(.predicate, argc, argv)
}
