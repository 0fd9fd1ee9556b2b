public import Foundation

/// SVG documents that attack the XML parser rather than the drawing, for the codec's and the
/// service's tests.
public enum HostileSVG {
    /// A billion laughs: `levels` entities, each `fanOut` references to the one before, the
    /// last used in a 10 × 10 document's text (fanOut^levels copies of "lol" if expanded).
    public static func billionLaughs(levels: Int = 12, fanOut: Int = 10) -> Data {
        var entities = "<!ENTITY a0 \"lol\">"
        for level in 1...levels {
            entities += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: fanOut) + "\">"
        }
        return Data(
            """
            <?xml version="1.0"?><!DOCTYPE svg [\(entities)]>
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&a\(levels);</text></svg>
            """.utf8)
    }
}
