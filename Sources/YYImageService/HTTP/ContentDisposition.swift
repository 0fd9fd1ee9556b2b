import Foundation
import YYImage

/// The `Content-Disposition` of a result, as imgproxy writes it: `inline` (or `attachment` with
/// `return_attachment`) and a file name — the `filename` option's, else the last path segment of
/// the source URL, else `image` — with the result's extension.
///
/// Unlike imgproxy, a name is never written into the header as it came: the quoted `filename`
/// keeps printable ASCII other than `"` and `\` (the rest become `_`), and a name that needed
/// that also goes as `filename*` in UTF-8 (RFC 6266), so no name can end the header early.
enum ContentDisposition {
    /// The header's value for a result of `type` made from `source`.
    static func value(source: String, filename: String?, type: ImageType, attachment: Bool) -> String {
        let name = (filename ?? stem(of: source)) + "." + type.fileExtension
        var value = "\(attachment ? "attachment" : "inline"); filename=\"\(String(name.unicodeScalars.map(asciiFallback)))\""
        if name.unicodeScalars.contains(where: { asciiFallback($0) != Character($0) }),
            let encoded = name.addingPercentEncoding(withAllowedCharacters: attributeCharacters)
        {
            value += "; filename*=UTF-8''" + encoded
        }
        return value
    }

    /// The last path segment of `source` without its extension, percent-decoded; `image` when
    /// there is none.
    static func stem(of source: String) -> String {
        let path = URLComponents(string: source)?.percentEncodedPath ?? source
        let segment = path.split(separator: "/").last.map(String.init) ?? ""
        let decoded = segment.removingPercentEncoding ?? segment
        let stem = decoded.range(of: ".", options: .backwards).map { String(decoded[..<$0.lowerBound]) } ?? decoded
        return stem.isEmpty ? "image" : stem
    }

    /// `scalar` when it may stand in a quoted file name, else `_`.
    private static func asciiFallback(_ scalar: Unicode.Scalar) -> Character {
        (0x20...0x7E).contains(scalar.value) && scalar != "\"" && scalar != "\\" ? Character(scalar) : "_"
    }

    /// RFC 5987's `attr-char`: what `filename*` leaves unescaped.
    private static let attributeCharacters = CharacterSet(charactersIn: "!#$&+-.^_`|~").union(
        CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"))
}
