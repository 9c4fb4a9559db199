import SchemaLab

/// What every fuzz executable shares: libFuzzer's entry point, which runs each input through
/// the target its `main` chose, and the driver call. Each executable is one line of its own.
public enum FuzzDriver {
    nonisolated(unsafe) static var target = FuzzTarget.scenario

    /// Runs libFuzzer's driver on `target` with the process's arguments.
    public static func run(_ target: FuzzTarget, _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
        Self.target = target
        var count = argc
        var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
        return LLVMFuzzerRunDriver(&count, &arguments, fuzzOneInput)
    }
}

/// libFuzzer's entry: one input through the chosen target (a broken promise traps).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzDriver.target.fuzz(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt
