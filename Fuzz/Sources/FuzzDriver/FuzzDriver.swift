// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (libFuzzer's C entry point keeps its C name)
// Starts libFuzzer from Swift's entry point. SwiftPM gives an executable's entry point a name of
// its own (and aliases `main` to it), so libFuzzer's `main` is never linked in; its driver is
// called here instead, with the process's arguments.

/// libFuzzer's driver: parses libFuzzer's flags from `argv` and calls `testOneInput` per input.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer over `testOneInput` with this process's arguments, and returns its exit code.
public func runFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    return LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
}
