// Serves the files of a folder on 127.0.0.1 for `scripts/demo` (`yy fetch` needs a server) and
// the YYWebImage benchmarks, and prints its port on the first line of stdout. Runs until stdin
// closes or the process is killed.
//   loopback-image-server DIR [--cache-control VALUE]     (default: no-cache)
import Foundation
import LoopbackHTTPServer

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 1 || (arguments.count == 3 && arguments[1] == "--cache-control") else {
    FileHandle.standardError.write(Data("usage: loopback-image-server DIR [--cache-control VALUE]\n".utf8))
    exit(2)
}
let directory = URL(fileURLWithPath: arguments[0], isDirectory: true)
let cacheControl = arguments.count == 3 ? arguments[2] : "no-cache"
let server = try await LoopbackHTTPServer.start(handler: LoopbackHTTPServer.files(in: directory, cacheControl: cacheControl))
FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))
// Reading stdin to its end blocks until the parent closes it (or goes away).
_ = FileHandle.standardInput.readDataToEndOfFile()
server.stop()
