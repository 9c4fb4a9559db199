import SchemaLab

/// libFuzzer's entry: one input through `FuzzTarget.modelXML` (a broken promise traps).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModelXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.modelXML.fuzz(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// The executable's entry (SwiftPM links `main` to `<module>_main`): libFuzzer's driver.
@_cdecl("FuzzModelXML_main")
public func fuzzModelXMLMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzModelXML)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt
