import FuzzDriver

/// The executable's entry (SwiftPM links `main` to `<module>_main`): libFuzzer on `FuzzTarget.modelXML`.
@_cdecl("FuzzModelXML_main")
public func fuzzModelXMLMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(.modelXML, argc, argv)
}
