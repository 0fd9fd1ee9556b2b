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
        let indent =
            lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }.joined(separator: "\n")
    }

    /// The regions of `text` between an opening line (for which `opening` gives a name) and the
    /// next closing line, with the line number after the opening one, markers left out.
    static func regions(in text: String, opening: (String) -> String?, closing: (String) -> Bool)
        -> [(name: String, line: Int, lines: [Substring])]
    {
        var regions: [(String, Int, [Substring])] = []
        var current: (name: String, line: Int, lines: [Substring])?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, let name = opening(trimmed) {
                current = (name, number + 1, [])
            } else if let open = current, closing(trimmed) {
                regions.append((open.name, open.line, open.lines))
                current = nil
            } else {
                current?.lines.append(line)
            }
        }
        return regions
    }

    /// The ```swift blocks of a Markdown text, with their line numbers, `import` lines left out.
    static func swiftBlocks(in text: String) -> [(line: Int, code: String)] {
        regions(in: text, opening: { $0 == "```swift" ? "swift" : nil }, closing: { $0 == "```" }).map { block in
            (block.line, normalized(block.lines.filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("import ") }))
        }
    }

    /// Every snippet of the Swift files of this folder, by name.
    static func snippets() throws -> [String: String] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let marker = "// snippet.begin "
        var snippets: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let found = regions(
                in: text, opening: { $0.hasPrefix(marker) ? String($0.dropFirst(marker.count)) : nil },
                closing: { $0 == "// snippet.end" })
            for snippet in found { snippets[snippet.name] = normalized(snippet.lines) }
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
