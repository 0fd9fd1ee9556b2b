import Foundation
import Testing

/// The Swift code the README and the DocC catalogs show is code this target compiles.
///
/// Each snippet sits in a file of this folder between `// snippet.begin NAME` and
/// `// snippet.end`, inside a function (statements) or at file scope (declarations), with whatever
/// it needs declared around it. Every ```swift block of the documents must equal one snippet
/// (compared without indentation and without its `import` lines, which the files have at the
/// top), and every snippet must be shown somewhere.
@Suite struct DocumentedSnippetTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // SnippetTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository

    /// The README and every Markdown file of a `.docc` catalog under `Sources/`.
    static var documents: [URL] {
        var found = [root.appendingPathComponent("README.md")]
        let sources = root.appendingPathComponent("Sources")
        let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            if url.pathExtension == "md" && url.path.contains(".docc/") { found.append(url) }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// `lines` without the indentation they share, and without blank lines at either end.
    static func normalized(_ lines: [Substring]) -> String {
        var lines = lines.map { $0.replacingOccurrences(of: "\t", with: "    ") }
        while lines.first?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeFirst() }
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        let indent = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }.joined(separator: "\n")
    }

    /// The ```swift blocks of a Markdown text, with their line numbers, `import` lines left out.
    static func swiftBlocks(in text: String) -> [(line: Int, code: String)] {
        var blocks: [(Int, String)] = []
        var current: [Substring]?
        var start = 0
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
                start = number + 1
            } else if current != nil, trimmed == "```" {
                blocks.append((start, normalized(current!)))
                current = nil
            } else if current != nil, !trimmed.hasPrefix("import ") {
                current!.append(line)
            }
        }
        return blocks
    }

    /// Every snippet of the Swift files of this folder, by name.
    static func snippets() throws -> [String: String] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        var snippets: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            var current: (name: String, lines: [Substring])?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("// snippet.begin ") {
                    current = (String(trimmed.dropFirst("// snippet.begin ".count)), [])
                } else if trimmed == "// snippet.end", let open = current {
                    snippets[open.name] = normalized(open.lines)
                    current = nil
                } else if current != nil {
                    current!.lines.append(line)
                }
            }
        }
        return snippets
    }

    @Test func everySwiftBlockOfTheDocumentsIsCompiledCode() throws {
        let snippets = try Self.snippets()
        #expect(snippets.count >= 6, "snippets found: \(snippets.keys.sorted())")
        var shown = Set<String>()
        for document in Self.documents {
            let text = try String(contentsOf: document, encoding: .utf8)
            for block in Self.swiftBlocks(in: text) {
                let match = snippets.first { $0.value == block.code }
                #expect(match != nil, "\(document.lastPathComponent), line \(block.line): this block is no snippet of Tests/SnippetTests")
                if let match { shown.insert(match.key) }
            }
        }
        #expect(shown == Set(snippets.keys), "snippets no document shows: \(Set(snippets.keys).subtracting(shown).sorted())")
    }
}
