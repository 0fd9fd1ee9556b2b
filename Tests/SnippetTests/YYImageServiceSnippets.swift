// swift-format-ignore-file
// (each snippet is the README's or the DocC catalog's code block, character for character)
import Foundation
import YYImageService

// The YYImageService catalog's example, compiled. Never called: it would serve until a signal.

func imageServiceSnippet(key: String, salt: String) async throws {
    // snippet.begin image-service
    var configuration = ImageServiceConfiguration()
    configuration.signature = URLSignature(keyPairs: [URLSignature.KeyPair(hexKey: key, hexSalt: salt)!])
    configuration.localRoot = "/srv/images"
    let service = try ImageService(configuration: configuration)
    try await service.runUntilSignalled()     // SIGTERM or SIGINT: finish what is in flight, return
    // snippet.end
}
