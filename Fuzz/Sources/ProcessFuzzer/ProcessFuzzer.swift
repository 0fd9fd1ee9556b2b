// libFuzzer entry for YYImage's processing: a small bitmap made from the input's bytes, then a
// chain of up to four steps whose kinds and parameters the input also picks, hostile values
// included (0, negative and huge sizes, NaN and infinite sigmas, crops past the edges). Every
// chain must give a bitmap or throw `ImageError`; sizes stay within the 4,096-pixel range the
// steps are asked for, so that an accepted chain stays cheap.
import Foundation
import FuzzDriver
import YYImage

@main
enum ProcessFuzzer {
    static func main() { exit(runFuzzer(testOneInput)) }
}

/// Reads the input a byte or a number at a time; zeros once it runs out.
private struct Reader {
    var bytes: ArraySlice<UInt8>
    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        let raw = Int(byte()) << 8 | Int(byte())
        switch raw % 16 {
        case 0: return 0
        case 1: return -raw
        case 2: return Int(Int32.max) + raw
        default: return range.lowerBound + raw % (range.count)
        }
    }
    mutating func double() -> Double {
        switch byte() % 8 {
        case 0: return .nan
        case 1: return .infinity
        case 2: return -1
        case 3: return 1e9
        default: return Double(byte()) / 16
        }
    }
}

private func fuzzProcess(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var reader = Reader(bytes: Array(UnsafeBufferPointer(start: start, count: count))[...])
    let width = Int(reader.byte() % 48) + 1, height = Int(reader.byte() % 48) + 1
    let alpha: Bitmap.AlphaMode = reader.byte() & 1 == 0 ? .straight : .premultiplied
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for i in pixels.indices { pixels[i] = reader.byte() }
    guard var bitmap = Bitmap(width: width, height: height, alphaMode: alpha, pixels: pixels) else { return 0 }
    if alpha == .premultiplied { bitmap = bitmap.converted(to: Bitmap.AlphaMode.straight).premultiplied() }
    var steps: [ProcessingStep] = []
    for _ in 0..<(reader.byte() % 5) {
        let colour = RGBA(reader.byte(), reader.byte(), reader.byte(), reader.byte())
        switch reader.byte() % 13 {
        case 0:
            var options = ResizeOptions(kernel: ResamplingKernel.allCases[Int(reader.byte()) % ResamplingKernel.allCases.count])
            options.reducingGap = reader.byte() & 1 == 0 ? nil : reader.double()
            options.linearLight = reader.byte() & 1 == 0
            options.usesAllCores = reader.byte() & 1 == 0
            let gravities: [Gravity] = [
                .center, .north, .southEast, .entropy, .attention,
                .focalPoint(x: reader.double(), y: reader.double()),
            ]
            steps.append(
                .resize(
                    Resize(
                        width: reader.byte() & 1 == 0 ? nil : reader.int(1...4096),
                        height: reader.byte() & 1 == 0 ? nil : reader.int(1...4096),
                        fit: FitMode.allCases[Int(reader.byte()) % FitMode.allCases.count],
                        gravity: gravities[Int(reader.byte()) % gravities.count],
                        enlarge: reader.byte() & 1 == 0, background: colour, options: options)))
        case 1: steps.append(.crop(PixelRect(x: reader.int(0...64), y: reader.int(0...64), width: reader.int(1...64), height: reader.int(1...64))))
        case 2:
            steps.append(
                .extend(top: reader.int(0...64), left: reader.int(0...64), bottom: reader.int(0...64), right: reader.int(0...64), background: colour))
        case 3: steps.append(.rotate(QuarterTurn.allCases[Int(reader.byte()) % 3]))
        case 4: steps.append(.flip)
        case 5: steps.append(.flop)
        case 6: steps.append(.trim(threshold: reader.int(0...255)))
        case 7: steps.append(.blur(sigma: reader.double()))
        case 8: steps.append(.sharpen(sigma: reader.double()))
        case 9: steps.append(.grayscale)
        case 10: steps.append(.flatten(background: colour))
        case 11: steps.append(.roundCorners(radius: reader.double()))
        default: steps.append(.circle)
        }
    }
    do {
        let out = try ProcessingChain(steps).apply(to: bitmap)
        precondition(out.width > 0 && out.height > 0 && out.pixels.count >= out.width * out.height * 4, "an empty or short result")
    } catch {
        // A typed error is the right answer to a hostile parameter.
    }
    return 0
}

private let testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { start, count in
    guard let start else { return 0 }
    return fuzzProcess(start, count)
}
