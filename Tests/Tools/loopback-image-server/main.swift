// Serves the files of a folder on 127.0.0.1 for `scripts/demo` (`yy fetch` needs a server) and
// prints its port on the first line of stdout. Runs until stdin closes or the process is killed.
//   loopback-image-server DIR
import Foundation
import LoopbackHTTPServer

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: loopback-image-server DIR\n".utf8))
    exit(2)
}
let directory = URL(fileURLWithPath: CommandLine.arguments[1], isDirectory: true)
let server = try await LoopbackHTTPServer.start(handler: LoopbackHTTPServer.files(in: directory))
FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))
// Reading stdin to its end blocks until the parent closes it (or goes away).
_ = FileHandle.standardInput.readDataToEndOfFile()
server.stop()
