import Foundation

/// BlurHash (Wolt's compact placeholder, https://blurha.sh): a few cosine components of the
/// picture in linear light, written in base 83. Meant for small pictures (a hundred pixels a
/// side is plenty): the cost is pixels × components.
public enum BlurHash {
    /// The hash of `bitmap` (its colour; alpha is ignored, as in the reference) with
    /// `componentsX` × `componentsY` components, each 1...9.
    public static func encode(_ bitmap: Bitmap, componentsX: Int = 4, componentsY: Int = 3) throws(ImageError) -> String {
        guard (1...9).contains(componentsX), (1...9).contains(componentsY) else {
            throw .invalidParameter(name: "blurhash", "\(componentsX)x\(componentsY) components: give 1...9 each way")
        }
        guard bitmap.width > 0, bitmap.height > 0 else { throw .invalidParameter(name: "blurhash", "an empty picture") }
        let pixels = bitmap.converted(to: .straight).packedPixels
        let (width, height) = (bitmap.width, bitmap.height)
        let linear = (0...255).map { Self.linear(fromSRGB: $0) }
        var factors: [(r: Double, g: Double, b: Double)] = []
        for j in 0..<componentsY {
            for i in 0..<componentsX {
                let normalisation = i == 0 && j == 0 ? 1.0 : 2.0
                let columns = (0..<width).map { cos(Double.pi * Double(i) * Double($0) / Double(width)) }
                var (r, g, b) = (0.0, 0.0, 0.0)
                for y in 0..<height {
                    let row = cos(Double.pi * Double(j) * Double(y) / Double(height))
                    for x in 0..<width {
                        let basis = normalisation * columns[x] * row
                        let p = (y * width + x) * 4
                        r += basis * linear[Int(pixels[p])]
                        g += basis * linear[Int(pixels[p + 1])]
                        b += basis * linear[Int(pixels[p + 2])]
                    }
                }
                let scale = 1 / Double(width * height)
                factors.append((r * scale, g * scale, b * scale))
            }
        }
        var hash = base83(componentsX - 1 + (componentsY - 1) * 9, digits: 1)
        let ac = factors.dropFirst()
        let maximum: Double
        if let largest = ac.map({ max(abs($0.r), abs($0.g), abs($0.b)) }).max() {
            let quantised = Int(max(0, min(82, (largest * 166 - 0.5).rounded(.down))))
            maximum = Double(quantised + 1) / 166
            hash += base83(quantised, digits: 1)
        } else {
            maximum = 1
            hash += base83(0, digits: 1)
        }
        let dc = factors[0]
        hash += base83(sRGB(fromLinear: dc.r) << 16 + sRGB(fromLinear: dc.g) << 8 + sRGB(fromLinear: dc.b), digits: 4)
        for factor in ac {
            func quantise(_ value: Double) -> Int {
                let signed = value / maximum
                let root = (abs(signed)).squareRoot() * (signed < 0 ? -1 : 1)
                return Int(max(0, min(18, (root * 9 + 9.5).rounded(.down))))
            }
            hash += base83(quantise(factor.r) * 19 * 19 + quantise(factor.g) * 19 + quantise(factor.b), digits: 2)
        }
        return hash
    }

    /// The average colour a hash holds (its first component), or `nil` for text that is no hash.
    public static func averageColor(of hash: String) -> RGBA? {
        let characters = Array(hash)
        guard characters.count >= 6 else { return nil }
        var value = 0
        for character in characters[2..<6] {
            guard let digit = alphabet.firstIndex(of: character) else { return nil }
            value = value * 83 + digit
        }
        guard value < 1 << 24 else { return nil }
        return RGBA(UInt8(value >> 16), UInt8((value >> 8) & 255), UInt8(value & 255))
    }

    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")

    private static func base83(_ value: Int, digits: Int) -> String {
        var result = ""
        for position in 1...digits {
            var divisor = 1
            for _ in 0..<(digits - position) { divisor *= 83 }
            result.append(alphabet[(value / divisor) % 83])
        }
        return result
    }

    private static func linear(fromSRGB level: Int) -> Double {
        let v = Double(level) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    private static func sRGB(fromLinear value: Double) -> Int {
        let v = max(0, min(1, value))
        return v <= 0.0031308 ? Int(v * 12.92 * 255 + 0.5) : Int((1.055 * pow(v, 1 / 2.4) - 0.055) * 255 + 0.5)
    }
}
