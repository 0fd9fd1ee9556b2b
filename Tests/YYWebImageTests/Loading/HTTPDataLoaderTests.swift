import Foundation
import TestSupport
import TestTraits
import Testing
import YYWebImage

@Suite(.hangLimit) struct HTTPDataLoaderTests {
    /// AsyncHTTPClient on its own tries a refused connection again, with back-off, until the
    /// connect timeout runs out: with an hour of it, this test would run into its time limit.
    @Test func aRefusedConnectionFailsAtOnceWhateverTheConnectTimeout() async throws {
        let refusing = try LoopbackPort.refusing()
        defer { withExtendedLifetime(refusing) {} }  // the port stays refused until the test ends
        var configuration = HTTPDataLoader.Configuration()
        configuration.connectTimeout = .seconds(3600)
        let loader = HTTPDataLoader(configuration: configuration)
        let request = DataLoadRequest(url: try #require(URL(string: "http://127.0.0.1:\(refusing.port)/a.png")))
        await #expect(throws: ImagePipelineError.transport("Connection refused (errno \(ECONNREFUSED))")) {
            _ = try await loader.load(request)
        }
    }

    /// Through a host name, NIO's error lists every address it tried, in its own words; the
    /// first address's error is what the pipeline says.
    @Test func aRefusedConnectionToANamedHostSaysSoInPlainWords() async throws {
        let refusing = try LoopbackPort.refusing()
        defer { withExtendedLifetime(refusing) {} }
        let request = DataLoadRequest(url: try #require(URL(string: "http://localhost:\(refusing.port)/a.png")))
        await #expect(throws: ImagePipelineError.transport("Connection refused (errno \(ECONNREFUSED))")) {
            _ = try await HTTPDataLoader().load(request)
        }
    }

    /// `.invalid` never resolves (RFC 6761); without a network the lookup fails too, perhaps in
    /// other words ("Temporary failure in name resolution").
    @Test func aNameThatDoesNotResolveSaysWhichHost() async throws {
        let request = DataLoadRequest(url: try #require(URL(string: "http://nonexistent.invalid/a.png")))
        await #expect { _ = try await HTTPDataLoader().load(request) } throws: { error in
            guard case .transport(let message) = error as? ImagePipelineError else { return false }
            return message.hasPrefix("cannot resolve host nonexistent.invalid: ")
        }
    }
}
