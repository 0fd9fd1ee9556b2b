import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing
import YYImage

@testable import YYImageService

/// SVG sources: passed through sanitised unless a raster format is named, drawn at the size
/// asked for when one is, never loading anything from outside the document.
extension ProcessingOptionTests {
    /// 40 × 20 over a 4 × 2 view box: red left half, blue right half.
    static let halvesSVG = Data(
        """
        <?xml version="1.0"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 4 2">
          <rect width="2" height="2" fill="#ff0000"/><rect x="2" width="2" height="2" fill="#0000ff"/>
        </svg>
        """.utf8)

    /// A document that tries every way out of itself, to `origin`: a script, handlers, a
    /// foreign object, images, uses, style imports and `url()` paints, a link and an animation
    /// that sets one; and one `data:` image, which may stay.
    static func hostileSVG(origin: String) -> Data {
        let dot = (try? ImageEncoder.encode(Bitmap(filledWith: green, width: 2, height: 2), as: .png))?.base64EncodedString() ?? ""
        return Data(
            """
            <?xml version="1.0"?>
            <?xml-stylesheet href="\(origin)/sheet.css"?>
            <!DOCTYPE svg [<!ENTITY ext SYSTEM "\(origin)/entity"><!ENTITY inner "text">]>
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="20" onload="alert(1)">
              <script>alert(2)</script>
              <style>@import url(\(origin)/import.css); ellipse { fill: url(\(origin)/paint.svg#p) }</style>
              <foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" src="\(origin)/frame"/></foreignObject>
              <rect width="40" height="20" fill="#ff0000" onclick="alert(3)"/>
              <ellipse rx="3" ry="3" style="fill: url('\(origin)/style.svg#p')"/>
              <image href="\(origin)/image.png" width="10" height="10"/>
              <image xlink:href="\(origin)/xlink.png" width="10" height="10"/>
              <use href="\(origin)/use.svg#shape"/>
              <circle r="5" fill="url(\(origin)/fill.svg#g)"/>
              <filter id="f"><feImage href="\(origin)/fe.png"/></filter>
              <a href="javascript:alert(4)"><text x="1" y="15">link</text></a>
              <set attributeName="href" to="javascript:alert(5)"/>
              <image href="data:image/png;base64,\(dot)" x="30" width="10" height="10"/>
              <text x="1" y="10">&inner;</text>
            </svg>
            """.utf8)
    }

    @Test func anSVGSourceIsServedAsSVGSanitisedUnlessARasterFormatIsNamed() async throws {
        try await withService(files: ["halves.svg": Self.halvesSVG]) { service in
            let reply = try await service.get("/insecure/w:100/plain/local:///halves.svg")
            #expect(reply.status == 200 && reply.header("Content-Type") == "image/svg+xml")
            #expect(reply.header("Content-Security-Policy") == SVGSanitizer.contentSecurityPolicy)
            let text = String(decoding: reply.body, as: UTF8.self)
            #expect(text.contains("<rect fill=\"#ff0000\" height=\"2\" width=\"2\"></rect>"))
            let named = try await service.get("/insecure/f:svg/plain/local:///halves.svg")
            #expect(named.status == 200 && named.body == reply.body)
            // A raster source cannot become SVG.
            #expect(try await service.get("/insecure/f:svg/plain/local:///quadrants.png").status == 422)
        }
    }

    @Test func anSVGIsDrawnAtTheSizeAskedForNotScaledAfter() async throws {
        try await withService(files: ["halves.svg": Self.halvesSVG]) { service in
            let large = try await render(service, "w:400/f:png", "halves.svg")
            #expect(large.width == 400 && large.height == 200)
            // A drawing's edge where the halves meet is sharp; a 40-pixel bitmap scaled ten
            // times would blend across several pixels.
            #expect(large[199, 100] == Self.red && large[200, 100] == Self.blue)
            let small = try await render(service, "rs:fill:10:10/f:png", "halves.svg")
            // Filled: the middle 1 × 1 of the 2 × 1 drawing, half red, half blue.
            #expect(small.width == 10 && small.height == 10 && small[1, 5] == Self.red && small[8, 5] == Self.blue)
            let plain = try await render(service, "f:png", "halves.svg")
            #expect(plain.width == 40 && plain.height == 20)
        }
    }

    @Test func styleLaysCSSOverTheDocumentDrawnOrPassedThrough() async throws {
        let css = Array("rect { fill: #00ff00 }".utf8).base64URLEncoded
        try await withService(files: ["halves.svg": Self.halvesSVG]) { service in
            let drawn = try await render(service, "st:\(css)/f:png", "halves.svg")
            #expect(drawn[5, 5] == Self.green && drawn[35, 5] == Self.green)
            let passed = try await service.get("/insecure/style:\(css)/plain/local:///halves.svg")
            #expect(String(decoding: passed.body, as: UTF8.self).contains("<style>rect { fill: #00ff00 }</style>"))
            // CSS that loads something is left out of the document.
            let importing = Array("@import url(http://example.com/x.css);".utf8).base64URLEncoded
            let refused = try await service.get("/insecure/st:\(importing)/plain/local:///halves.svg")
            #expect(refused.status == 200 && !String(decoding: refused.body, as: UTF8.self).contains("import"))
            #expect(try await service.get("/insecure/st:%%%/plain/local:///halves.svg").status == 400)
        }
    }

    @Test func aHostileSVGLoadsNothingDrawnOrPassedThroughAndKeepsNothingThatRuns() async throws {
        let origin = try await LoopbackHTTPServer.start { _ in .response(headers: [("Content-Type", "image/png")], body: []) }
        defer { origin.stop() }
        let hostile = Self.hostileSVG(origin: "http://127.0.0.1:\(origin.port)")
        let entity = Data(
            """
            <!DOCTYPE svg [<!ENTITY ext SYSTEM "http://127.0.0.1:\(origin.port)/entity">]>
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text y="5">&ext;</text></svg>
            """.utf8)
        // Loopback is allowed, so that only the SVG code paths stand between the document and the origin.
        let files = ["hostile.svg": hostile, "entity.svg": entity]
        try await withService(files: files, { $0.addressPolicy = SourceAddressPolicy(allowsLoopback: true) }) { service in
            let drawn = try await render(service, "w:80/f:png", "hostile.svg")
            #expect(drawn.width == 80 && near(drawn[40, 30], Self.red, tolerance: 0))
            // The data: image is drawn.
            #expect(near(drawn[70, 10], Self.green, tolerance: 0))
            let passed = try await service.get("/insecure/plain/local:///hostile.svg")
            #expect(passed.status == 200)
            let text = String(decoding: passed.body, as: UTF8.self)
            for banned in ["script", "alert", "onload", "onclick", "foreignObject", "iframe", "127.0.0.1", "import", "javascript", "ENTITY"] {
                #expect(!text.contains(banned), "\(banned) is in \(text)")
            }
            #expect(text.contains("data:image/png;base64,") && text.contains("<rect "))
            // What is left is still a document that draws.
            let again = try ImageDecoder(data: passed.body).frame(at: 0)
            #expect(again.width == 40 && again[5, 15] == Self.red)
            // A document that uses an external entity is refused drawn, and passed through
            // without it.
            let entity = try await service.get("/insecure/f:png/plain/local:///entity.svg")
            #expect(entity.status == 422)
            let entityPassed = try await service.get("/insecure/plain/local:///entity.svg")
            #expect(!String(decoding: entityPassed.body, as: UTF8.self).contains("127.0.0.1"))
        }
        #expect(origin.acceptedConnections == 0)
    }

    @Test func anSVGOverThePixelLimitMalformedOrABillionLaughsIsRefused() async throws {
        let huge = Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100000\" height=\"100000\"><rect width=\"9\" height=\"9\"/></svg>".utf8)
        let broken = Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect</svg>".utf8)
        let laughs = HostileSVG.billionLaughs()
        let files = ["huge.svg": huge, "broken.svg": broken, "laughs.svg": laughs, "small.svg": Self.halvesSVG]
        try await withService(files: files) { service in
            // libxml2 stops the expansion in the sanitiser; librsvg stops it when drawing.
            let passed = try await service.get("/insecure/plain/local:///laughs.svg")
            #expect(passed.status == 422)
            let laughsDrawn = try await service.get("/insecure/f:png/plain/local:///laughs.svg")
            #expect(laughsDrawn.status == 422 || (laughsDrawn.status == 200 && laughsDrawn.body.count < 1 << 20))
            let drawn = try await service.get("/insecure/f:png/plain/local:///huge.svg")
            #expect(drawn.status == 422)
            // Drawing a small document past the limit (12000 x 6000, over the 50 MP of sources) is
            // refused the same way, before anything is drawn.
            #expect(try await service.get("/insecure/w:12000/f:png/plain/local:///small.svg").status == 422)
            #expect(try await service.get("/insecure/plain/local:///broken.svg").status == 422)
            // Passed through, a huge size is only text: nothing is drawn.
            #expect(try await service.get("/insecure/plain/local:///huge.svg").status == 200)
        }
    }
}
