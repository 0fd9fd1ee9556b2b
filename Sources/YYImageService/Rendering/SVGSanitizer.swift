import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// An SVG source made safe to serve as a document, as imgproxy's `IMGPROXY_SANITIZE_SVG` does:
/// parsed, then written again with only what draws.
///
/// Kept: the elements of SVG that draw, group, define, style, describe or animate a picture (an
/// allow-list; `script`, `foreignObject`, `iframe`, every other element, and animations that set
/// a reference or a handler go, with their content). Removed from what is kept: event handler
/// attributes (`on…`), `xml:base`, references (`href`, `xlink:href`, `url(…)`) to anything but a
/// fragment of the document or a `data:` raster image, attributes in namespaces other than
/// XLink's and XML's (editors' own), and style text with an `@import`, an external `url(…)` or a
/// CSS escape (which could spell either). Comments, processing instructions (`xml-stylesheet`)
/// and the doctype go too; entities are expanded by libxml2 within its limits (a billion laughs
/// is refused). The result is served with ``contentSecurityPolicy``, which forbids scripts and
/// loads even if something slipped through.
enum SVGSanitizer {
    /// The policy an SVG result is served with: nothing loads or runs but inline styles and
    /// `data:` images.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"

    /// `data` sanitised, with `style` (CSS) as a `style` element before the root's content when
    /// it loads nothing; a 422 when `data` is not well-formed XML with an `svg` root.
    static func sanitized(_ data: Data, style: String? = nil) throws(ServiceError) -> Data {
        let writer = Writer()
        writer.style = style.flatMap { isSafe(style: $0) ? $0 : nil }
        let parser = XMLParser(data: data)
        parser.delegate = writer
        parser.shouldResolveExternalEntities = false
        guard parser.parse(), writer.sawRoot, !writer.failed, writer.isComplete else {
            throw .unprocessable("the SVG source is not a well-formed SVG document")
        }
        return Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + writer.output).utf8)
    }

    /// The elements kept: SVG's structural, shape, text, paint server, clipping, filter,
    /// style, descriptive and animation elements.
    static let allowedElements: Set<String> = [
        "svg", "g", "defs", "symbol", "use", "image", "switch", "a", "view",
        "path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
        "text", "tspan", "textPath",
        "linearGradient", "radialGradient", "stop", "pattern", "marker", "clipPath", "mask",
        "filter", "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite", "feConvolveMatrix",
        "feDiffuseLighting", "feDisplacementMap", "feDistantLight", "feDropShadow", "feFlood", "feFuncA", "feFuncB",
        "feFuncG", "feFuncR", "feGaussianBlur", "feImage", "feMerge", "feMergeNode", "feMorphology", "feOffset",
        "fePointLight", "feSpecularLighting", "feSpotLight", "feTile", "feTurbulence",
        "style", "title", "desc",
        "animate", "animateMotion", "animateTransform", "set", "mpath",
    ]

    /// Whether an element with `attributes` is kept: an allowed one, but for an animation that
    /// changes a reference or a handler (its `to` and `values` could spell anything).
    static func keeps(element name: String, attributes: [String: String]) -> Bool {
        guard allowedElements.contains(name) else { return false }
        guard name.hasPrefix("animate") || name == "set", let target = attributes["attributeName"] else { return true }
        let lowered = target.trimmingCharacters(in: .whitespaces).lowercased()
        return !(lowered.hasPrefix("on") || lowered == "href" || lowered.hasSuffix(":href"))
    }

    /// Whether an attribute may stay on a kept element.
    static func keeps(attribute name: String, value: String) -> Bool {
        let lowered = name.lowercased()
        if lowered.hasPrefix("on") || lowered == "xml:base" { return false }
        // Prefixes other than xlink and xml would need declarations the result does not make.
        if let colon = lowered.firstIndex(of: ":"), !["xlink", "xml"].contains(lowered[..<colon]) { return false }
        if lowered == "href" || lowered.hasSuffix(":href") { return isInternal(reference: value) }
        if lowered == "style" { return isSafe(style: value) }
        return urlsAreInternal(in: value)
    }

    /// Whether a reference stays inside the document: a fragment, or a `data:` raster image.
    static func isInternal(reference: String) -> Bool {
        let trimmed = reference.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if trimmed.hasPrefix("#") { return true }
        return ["data:image/png", "data:image/jpeg", "data:image/gif", "data:image/webp", "data:image/avif"].contains {
            trimmed.hasPrefix($0 + ";") || trimmed.hasPrefix($0 + ",")
        }
    }

    /// Whether CSS text loads nothing: no `@import`, no escape, every `url(…)` internal.
    static func isSafe(style: String) -> Bool {
        let lowered = style.lowercased()
        return !lowered.contains("@import") && !lowered.contains("\\") && urlsAreInternal(in: style)
    }

    /// Whether every `url(…)` in `text` is internal.
    static func urlsAreInternal(in text: String) -> Bool {
        var rest = text.lowercased()[...]
        while let open = rest.range(of: "url(") {
            let reference = rest[open.upperBound...].drop { $0 == " " || $0 == "\"" || $0 == "'" || $0 == "\t" || $0 == "\n" }
            guard isInternal(reference: String(reference)) else { return false }
            rest = rest[open.upperBound...]
        }
        return true
    }

    /// Writes the kept elements as the parser reports them.
    private final class Writer: NSObject, XMLParserDelegate {
        var output = ""
        var sawRoot = false
        /// Whether the parser reported an error (it may recover and go on).
        var failed = false
        /// Whether every element opened was closed.
        var isComplete: Bool { open.isEmpty }
        /// CSS to put first in the root.
        var style: String?
        /// The open elements, each with whether it is kept.
        private var open: [(name: String, kept: Bool)] = []
        /// Text of the `style` element being read, written once it closes.
        private var styleText: String?

        private var inRemovedElement: Bool { open.contains { !$0.kept } }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if open.isEmpty {
                guard name == "svg" else {
                    parser.abortParsing()
                    return
                }
                sawRoot = true
            }
            // Nothing but text goes inside a style sheet.
            let kept = !inRemovedElement && open.last?.name != "style" && SVGSanitizer.keeps(element: name, attributes: attributes)
            open.append((name, kept))
            guard kept else { return }
            var keptAttributes = attributes.filter { SVGSanitizer.keeps(attribute: $0.key, value: $0.value) }
            if open.count == 1 {
                // The root declares the only namespaces the result uses (other prefixes go).
                keptAttributes["xmlns"] = "http://www.w3.org/2000/svg"
                keptAttributes["xmlns:xlink"] = "http://www.w3.org/1999/xlink"
            }
            output += "<" + name
            for (key, value) in keptAttributes.sorted(by: { $0.key < $1.key }) {
                output += " \(key)=\"\(Self.escaped(value, quotes: true))\""
            }
            output += ">"
            if open.count == 1, let style { output += "<style>\(Self.escaped(style, quotes: false))</style>" }
            if name == "style" { styleText = "" }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard let element = open.popLast() else { return }
            guard element.kept else { return }
            if element.name == "style", let text = styleText {
                if SVGSanitizer.isSafe(style: text) { output += Self.escaped(text, quotes: false) }
                styleText = nil
            }
            output += "</\(element.name)>"
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) { failed = true }

        func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error) { failed = true }

        func parser(_ parser: XMLParser, foundCharacters string: String) { write(text: string) }

        func parser(_ parser: XMLParser, foundCDATA block: Data) { write(text: String(decoding: block, as: UTF8.self)) }

        private func write(text: String) {
            guard !open.isEmpty, !inRemovedElement else { return }
            if styleText != nil {
                styleText! += text
            } else {
                output += Self.escaped(text, quotes: false)
            }
        }

        static func escaped(_ text: String, quotes: Bool) -> String {
            var result = ""
            result.reserveCapacity(text.utf8.count)
            for character in text.unicodeScalars {
                switch character {
                case "&": result += "&amp;"
                case "<": result += "&lt;"
                case ">": result += "&gt;"
                case "\"" where quotes: result += "&quot;"
                default: result.unicodeScalars.append(character)
                }
            }
            return result
        }
    }
}
