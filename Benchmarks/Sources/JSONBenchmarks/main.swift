// YYModel's benchmarks, release build, every contender in the same run:
//   parse-only MB/s (YYModel's JSONDocument vs simdjson vs Foundation JSONSerialization),
//   typed decode MB/s (ModelDecoder vs Foundation JSONDecoder, same Codable models),
//   write MB/s (JSONWriter vs JSONSerialization, ModelEncoder vs JSONEncoder),
//   the GitHub-user sample: bytes → model and model → bytes in microseconds.
//
//   swift run -c release JSONBenchmarks [--corpus DIR] [--rounds N] [--only parse|decode|write]
//   swift run -c release JSONBenchmarks --profile-parse|--profile-macro|--profile-bridge|--profile-write twitter|citm|canada
import BenchmarkSupport
import CSimdjson
import Foundation
import YYModel

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let corpus =
    option("--corpus")
    ?? URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()  // Benchmarks
    .deletingLastPathComponent().deletingLastPathComponent()  // beside the repository
    .appendingPathComponent("shared/testdata/json/corpus").path
let rounds = option("--rounds").flatMap(Int.init) ?? 5
/// `--only parse`, `--only decode` or `--only write` runs one table (for quick comparisons while working).
let only = option("--only")

if let name = option("--profile-macro") ?? option("--profile-bridge") {
    // For profilers: decode one corpus file (twitter, citm or canada) in a loop and nothing else,
    // into the @Model types (--profile-macro) or the plain Codable ones (--profile-bridge).
    let bytes = [UInt8](FileManager.default.contents(atPath: corpus + "/\(name == "citm" ? "citm_catalog" : name).json")!)
    let macro = option("--profile-macro") != nil
    for _ in 0..<300 {
        switch (name, macro) {
        case ("canada", true): _ = try ModelDecoder().decode(MCanada.self, from: bytes)
        case ("canada", false): _ = try ModelDecoder().decode(Canada.self, from: bytes)
        case ("citm", true): _ = try ModelDecoder().decode(MCitmCatalog.self, from: bytes)
        case ("citm", false): _ = try ModelDecoder().decode(CitmCatalog.self, from: bytes)
        case (_, true): _ = try ModelDecoder().decode(MTwitter.self, from: bytes)
        case (_, false): _ = try ModelDecoder().decode(Twitter.self, from: bytes)
        }
    }
    exit(0)
}
if let name = option("--profile-parse") {
    // For profilers: parse one corpus file (twitter, citm or canada) into a JSONDocument in a loop.
    let bytes = [UInt8](FileManager.default.contents(atPath: corpus + "/\(name == "citm" ? "citm_catalog" : name).json")!)
    for _ in 0..<2000 { _ = try JSONDocument(parsing: bytes) }
    exit(0)
}
if let name = option("--profile-write") {
    // For profilers: write one corpus file (twitter, citm or canada), parsed into a JSONValue, in a loop.
    let value = try JSONValue(parsing: FileManager.default.contents(atPath: corpus + "/\(name == "citm" ? "citm_catalog" : name).json")!)
    for _ in 0..<300 { _ = try JSONWriter().bytes(for: value) }
    exit(0)
}
guard FileManager.default.fileExists(atPath: corpus) else {
    FileHandle.standardError.write(Data("JSONBenchmarks: no corpus at \(corpus) (pass --corpus DIR)\n".utf8))
    exit(2)
}

/// `measure` with this run's number of rounds.
func measure(_ contenders: [(String, () throws -> Void)]) throws -> [String: Double] {
    try measure(rounds: rounds, contenders)
}

func load(_ name: String) -> [UInt8] {
    [UInt8](FileManager.default.contents(atPath: corpus + "/" + name)!)
}

func f1(_ value: Double) -> String { String(format: "%.1f", value) }
func f2(_ value: Double) -> String { String(format: "%.2f", value) }

var lines: [String] = []
let simdjson = yy_simdjson_parser_new()
defer { yy_simdjson_parser_free(simdjson) }

// MARK: Parse only

if only == nil || only == "parse" {
    lines += [
        "JSON parse only, best of \(rounds) rounds, MB/s (higher is better)",
        "",
        "| file | MB | JSONDocument | simdjson 3.0.1 | JSONSerialization | JSONDocument / simdjson (goal ≥ 0.6) | JSONDocument / JSONSerialization |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
}
for name in ["twitter.json", "citm_catalog.json", "canada.json"] where only == nil || only == "parse" {
    let bytes = load(name)
    let data = Data(bytes)
    let padded = bytes + [UInt8](repeating: 0, count: 64)  // simdjson reads up to 64 bytes past the end
    let times = try measure([
        ("ours", { _ = try JSONDocument(parsing: bytes) }),
        (
            "simdjson",
            {
                let status = padded.withUnsafeBufferPointer {
                    yy_simdjson_parse(simdjson, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), bytes.count)
                }
                precondition(status == 0)
            }
        ),
        ("foundation", { _ = try JSONSerialization.jsonObject(with: data) }),
    ])
    let megabytes = Double(bytes.count) / 1_000_000
    let speed = times.mapValues { megabytes / $0 }
    lines.append(
        "| \(name) | \(f2(megabytes)) | \(f1(speed["ours"]!)) | \(f1(speed["simdjson"]!)) | \(f1(speed["foundation"]!)) | \(f2(speed["ours"]! / speed["simdjson"]!))x | \(f2(speed["ours"]! / speed["foundation"]!))x |"
    )
}

// MARK: Typed decode

if only == nil || only == "decode" {
    lines += [
        "",
        "Typed decode into the same Codable models, MB/s (higher is better)",
        "",
        "| file | @Model (macro path) | ModelDecoder (Codable bridge) | JSONDecoder | @Model / JSONDecoder (goal ≥ 8) | bridge / JSONDecoder (goal ≥ 2) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
}
func decodeRow<T: Decodable, M: Decodable>(_ name: String, _ type: T.Type, _ model: M.Type) throws -> String {
    let bytes = load(name)
    let data = Data(bytes)
    let ours = ModelDecoder()
    let foundation = JSONDecoder()
    let times = try measure([
        ("macro", { _ = try ours.decode(model, from: bytes) }),
        ("ours", { _ = try ours.decode(type, from: bytes) }),
        ("foundation", { _ = try foundation.decode(type, from: data) }),
    ])
    let megabytes = Double(bytes.count) / 1_000_000
    return
        "| \(name) | \(f1(megabytes / times["macro"]!)) | \(f1(megabytes / times["ours"]!)) | \(f1(megabytes / times["foundation"]!)) | \(f2(times["foundation"]! / times["macro"]!))x | \(f2(times["foundation"]! / times["ours"]!))x |"
}
if only == nil || only == "decode" {
    lines.append(try decodeRow("twitter.json", Twitter.self, MTwitter.self))
    lines.append(try decodeRow("citm_catalog.json", CitmCatalog.self, MCitmCatalog.self))
    lines.append(try decodeRow("canada.json", Canada.self, MCanada.self))
}

// MARK: Write

if only == nil || only == "write" {
    lines += [
        "",
        "Write: a parsed `JSONValue` back to bytes, and the decoded Codable models to bytes, MB of output/s (higher is better)",
        "",
        "| file | JSONWriter (JSONValue) | JSONSerialization (same tree) | ModelEncoder (Codable tree) | JSONEncoder | JSONWriter / JSONSerialization | ModelEncoder / JSONEncoder |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
}
func writeRow<T: Codable>(_ name: String, _ type: T.Type) throws -> String {
    let bytes = load(name)
    let value = try JSONValue(parsing: bytes)
    let object = try JSONSerialization.jsonObject(with: Data(bytes))
    let model = try ModelDecoder().decode(type, from: bytes)
    let writer = JSONWriter()
    let encoder = ModelEncoder()
    let foundation = JSONEncoder()
    let valueMegabytes = Double(try writer.bytes(for: value).count) / 1_000_000
    let serializationMegabytes = Double(try JSONSerialization.data(withJSONObject: object).count) / 1_000_000
    let modelMegabytes = Double(try encoder.encodeToBytes(model).count) / 1_000_000
    let foundationMegabytes = Double(try foundation.encode(model).count) / 1_000_000
    let times = try measure([
        ("writer", { _ = try writer.bytes(for: value) }),
        ("serialization", { _ = try JSONSerialization.data(withJSONObject: object) }),
        ("encoder", { _ = try encoder.encodeToBytes(model) }),
        ("foundation", { _ = try foundation.encode(model) }),
    ])
    let writerSpeed = valueMegabytes / times["writer"]!, serializationSpeed = serializationMegabytes / times["serialization"]!
    let encoderSpeed = modelMegabytes / times["encoder"]!, foundationSpeed = foundationMegabytes / times["foundation"]!
    return
        "| \(name) | \(f1(writerSpeed)) | \(f1(serializationSpeed)) | \(f1(encoderSpeed)) | \(f1(foundationSpeed)) | \(f2(writerSpeed / serializationSpeed))x | \(f2(encoderSpeed / foundationSpeed))x |"
}
if only == nil || only == "write" {
    lines.append(try writeRow("twitter.json", Twitter.self))
    lines.append(try writeRow("citm_catalog.json", CitmCatalog.self))
    lines.append(try writeRow("canada.json", Canada.self))
}
if only != nil {
    print(lines.joined(separator: "\n"))
    exit(0)
}

// MARK: GitHub user

let userBytes = load("yymodel_github_user.json")
let userData = Data(userBytes)
let user = try ModelDecoder().decode(GitHubUser.self, from: userBytes)
let foundationUser = try JSONDecoder().decode(GitHubUser.self, from: userData)
precondition(user == foundationUser)

/// A mapping written by hand over the public API: parse, then pick the members one by one.
func handWritten(_ bytes: [UInt8]) throws -> GitHubUser {
    let object = try JSONDocument(parsing: bytes).value
    func string(_ key: String) -> String { if case .string(let text)? = object[key] { text } else { "" } }
    func optionalString(_ key: String) -> String? { if case .string(let text)? = object[key] { text } else { nil } }
    func int(_ key: String) -> Int { if case .int(let number)? = object[key] { Int(number) } else { 0 } }
    func bool(_ key: String) -> Bool? { if case .bool(let flag)? = object[key] { flag } else { nil } }
    return GitHubUser(
        login: string("login"), id: UInt64(int("id")), avatar_url: string("avatar_url"), gravatar_id: string("gravatar_id"),
        url: string("url"), html_url: string("html_url"), followers_url: string("followers_url"),
        following_url: string("following_url"), gists_url: string("gists_url"), starred_url: string("starred_url"),
        subscriptions_url: string("subscriptions_url"), organizations_url: string("organizations_url"),
        repos_url: string("repos_url"), events_url: string("events_url"), received_events_url: string("received_events_url"),
        type: string("type"), site_admin: bool("site_admin") ?? false, name: string("name"), company: optionalString("company"),
        blog: string("blog"), location: string("location"), email: optionalString("email"), hireable: bool("hireable"),
        bio: string("bio"), public_repos: int("public_repos"), public_gists: int("public_gists"),
        followers: int("followers"), following: int("following"))
}
let handWrittenUser = try handWritten(userBytes)
precondition(handWrittenUser == user)

let ourDecoder = ModelDecoder()
let foundationDecoder = JSONDecoder()
let decodeTimes = try measure([
    ("macro", { _ = try ourDecoder.decode(MGitHubUser.self, from: userBytes) }),
    ("ours", { _ = try ourDecoder.decode(GitHubUser.self, from: userBytes) }),
    ("foundation", { _ = try foundationDecoder.decode(GitHubUser.self, from: userData) }),
    ("hand", { _ = try handWritten(userBytes) }),
])
let ourEncoder = ModelEncoder()
let foundationEncoder = JSONEncoder()
let modelUser = try ModelDecoder().decode(MGitHubUser.self, from: userBytes)
let encodeTimes = try measure([
    ("macro", { _ = try ourEncoder.encodeToBytes(modelUser) }),
    ("ours", { _ = try ourEncoder.encodeToBytes(user) }),
    ("foundation", { _ = try foundationEncoder.encode(user) }),
])
lines += [
    "",
    "GitHub user (\(userBytes.count) bytes), microseconds per call (lower is better)",
    "",
    "| operation | YYModel | JSONDecoder / JSONEncoder | hand-written mapping | Foundation / YYModel | YYModel / hand-written (goal ≤ 1.2 for @Model) |",
    "|---|---:|---:|---:|---:|---:|",
    "| bytes → model (@Model) | \(f2(decodeTimes["macro"]! * 1e6)) | \(f2(decodeTimes["foundation"]! * 1e6)) | \(f2(decodeTimes["hand"]! * 1e6)) | \(f2(decodeTimes["foundation"]! / decodeTimes["macro"]!))x | \(f2(decodeTimes["macro"]! / decodeTimes["hand"]!))x |",
    "| bytes → model (Codable bridge) | \(f2(decodeTimes["ours"]! * 1e6)) | \(f2(decodeTimes["foundation"]! * 1e6)) | \(f2(decodeTimes["hand"]! * 1e6)) | \(f2(decodeTimes["foundation"]! / decodeTimes["ours"]!))x | \(f2(decodeTimes["ours"]! / decodeTimes["hand"]!))x |",
    "| model → bytes (@Model, direct) | \(f2(encodeTimes["macro"]! * 1e6)) | \(f2(encodeTimes["foundation"]! * 1e6)) | - | \(f2(encodeTimes["foundation"]! / encodeTimes["macro"]!))x | - |",
    "| model → bytes (ModelEncoder, Codable) | \(f2(encodeTimes["ours"]! * 1e6)) | \(f2(encodeTimes["foundation"]! * 1e6)) | - | \(f2(encodeTimes["foundation"]! / encodeTimes["ours"]!))x | - |",
]
print(lines.joined(separator: "\n"))
