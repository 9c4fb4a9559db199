import SchemaLab

/// libFuzzer's entry: one input through `FuzzTarget.predicate` (a broken promise traps).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.predicate.fuzz(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// The executable's entry (SwiftPM links `main` to `<module>_main`): libFuzzer's driver.
@_cdecl("FuzzPredicate_main")
public func fuzzPredicateMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzPredicate)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt
