// libFuzzer entry for YYCacheRedis's RESP reply parser and the tier's stored-value header: what a
// hostile or broken Redis server sends. Every input must parse or throw `Malformed`, never trap,
// and the parser must give the same replies however the bytes are split into reads (the first
// byte of the input picks the split). Needs `-enable-testing` (both types are internal).
import Foundation
import FuzzDriver
import NIOCore

@testable import YYCacheRedis

@main
enum RESPFuzzer {
    static func main() { exit(runFuzzer(testOneInput)) }
}

/// Every reply in `bytes` fed at once, then the error or incomplete tail that ended the run.
private func replies(_ bytes: ArraySlice<UInt8>, chunk: Int?) -> (values: [RESPValue], failed: Bool) {
    let parser = RESPParser(maximumBulkLength: 1 << 16)
    var buffer = ByteBuffer()
    var values: [RESPValue] = []
    var fed = bytes.startIndex
    while true {
        // Feed everything, or `chunk` bytes at a time as reads from a socket would.
        let end = chunk.map { min(bytes.endIndex, fed + $0) } ?? bytes.endIndex
        buffer.writeBytes(bytes[fed..<end])
        fed = end
        do {
            while let value = try parser.parse(&buffer) { values.append(value) }
        } catch {
            return (values, true)
        }
        if fed == bytes.endIndex { return (values, false) }
    }
}

private func fuzzRESP(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))[...]
    let whole = replies(bytes, chunk: nil)
    let split = replies(bytes, chunk: Int(start[0] % 17) + 1)
    precondition(
        whole.values == split.values && whole.failed == split.failed,
        "the replies depend on how the bytes were split")
    // The same bytes as a stored value: a miss with a reason, or the payload it framed.
    if let (payload, _) = try? StoredValueFrame.decode(ByteBuffer(bytes: bytes)) {
        precondition(payload.count == bytes.count - StoredValueFrame.headerSize, "a stored value's payload has the wrong length")
    }
    return 0
}

private let testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { start, count in
    guard let start else { return 0 }
    return fuzzRESP(start, count)
}
