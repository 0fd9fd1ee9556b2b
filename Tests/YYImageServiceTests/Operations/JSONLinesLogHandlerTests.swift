import Foundation
import Logging
import Testing
import YYDispatch
import YYImageService

/// Each log event is one line of JSON with the time, level, label, message and metadata.
@Suite struct JSONLinesLogHandlerTests {
    @Test func anEventIsOneJSONObjectOnOneLine() throws {
        let lines = Locked<[Data]>([])
        var logger = Logger(label: "yykit.serve") { label in JSONLinesLogHandler(label: label) { line in lines.withLock { $0.append(line) } } }
        logger[metadataKey: "replica"] = "a"
        logger.warning("request", metadata: ["status": "503", "path": "/x\n\"y\""])
        logger.debug("not at info")
        let written = lines.withLock { $0 }
        #expect(written.count == 1)
        let line = try #require(written.first)
        #expect(line.last == UInt8(ascii: "\n") && !line.dropLast().contains(UInt8(ascii: "\n")))
        let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: String])
        #expect(object["level"] == "warning" && object["label"] == "yykit.serve" && object["message"] == "request")
        #expect(object["status"] == "503" && object["path"] == "/x\n\"y\"" && object["replica"] == "a")
        #expect(object["time"]?.hasPrefix("20") == true)
    }
}
