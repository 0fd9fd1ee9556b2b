// A child process for YYCacheTests. Not part of the library.
//
//   cache-crash-writer write PATH SEED COUNT KEYS   writes COUNT values over KEYS keys until done
//                                                   or killed; prints "W seq key" before each write
//                                                   and "C seq" once it has committed
//   cache-crash-writer open PATH                    opens the cache; prints "ok" or the error
//
// Value layout (all little-endian), checked by DiskCacheCrashSafetyTests:
//   seed u64 | seq u64 | key u32 | payload length u32 | payload | FNV-1a 64 of everything before
import Foundation
import TestSupport
import YYCache

func makeValue(seed: UInt64, seq: UInt64, key: UInt32, length: Int) -> Data {
    var data = Data(capacity: length + 32)
    withUnsafeBytes(of: seed.littleEndian) { data.append(contentsOf: $0) }
    withUnsafeBytes(of: seq.littleEndian) { data.append(contentsOf: $0) }
    withUnsafeBytes(of: key.littleEndian) { data.append(contentsOf: $0) }
    withUnsafeBytes(of: UInt32(length).littleEndian) { data.append(contentsOf: $0) }
    var generator = SplitMix64(seed: seed &* 31 &+ seq)
    var payload = [UInt8](repeating: 0, count: length)
    for i in stride(from: 0, to: length, by: 8) {
        let word = generator.next()
        for j in 0..<min(8, length - i) { payload[i + j] = UInt8(truncatingIfNeeded: word >> (8 * UInt64(j))) }
    }
    data.append(contentsOf: payload)
    let checksum = fnv1a(data)
    withUnsafeBytes(of: checksum.littleEndian) { data.append(contentsOf: $0) }
    return data
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "write" where arguments.count == 6:
    guard let seed = UInt64(arguments[3]), let count = Int(arguments[4]), let keys = UInt32(arguments[5]) else {
        say("bad arguments"); exit(2)
    }
    do {
        let cache = try DiskCache(path: arguments[2])
        var generator = SplitMix64(seed: seed)
        for seq in 0..<UInt64(count) {
            let key = UInt32(generator.next() % UInt64(keys))
            // Sizes on both sides of the 20 KB inline threshold.
            let length = generator.next() % 3 == 0 ? Int(20_480 + generator.next() % 40_000) : Int(generator.next() % 2_000)
            say("W \(seq) \(key)")
            try cache.setData(makeValue(seed: seed, seq: seq, key: key, length: length), forKey: "key-\(key)")
            say("C \(seq)")
        }
    } catch {
        say("error \(error)"); exit(3)
    }
case "open" where arguments.count == 3:
    do {
        _ = try DiskCache(path: arguments[2])
        say("ok")
    } catch {
        say("\(error)"); exit(3)
    }
default:
    say("usage: cache-crash-writer write PATH SEED COUNT KEYS | open PATH"); exit(2)
}
