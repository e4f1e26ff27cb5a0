import EPFTestSupport
import Foundation
import Testing

/// The README's "Use as a Swift library": its two code blocks, as a user
/// copies them, make a package that builds against this one and does what
/// the text says.
@Suite("The README's library example")
struct LibraryUseTests {
    /// The ```swift blocks of the README's section `title`.
    static func swiftBlocks(section title: String) throws -> [String] {
        let readme = try String(contentsOf: SampleFeeds.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "\n## \(title)\n"))
        let rest = readme[start.upperBound...]
        let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        var blocks: [String] = []
        var current: [Substring]?
        for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n") + "\n")
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    @Test("The example package builds from the README's text, imports SampleFeeds, applies nothing the second time and prints a lookup")
    func theExampleBuildsAndRuns() throws {
        let blocks = try Self.swiftBlocks(section: "Use as a Swift library")
        try #require(blocks.count == 2, "the section has \(blocks.count) swift blocks")
        #expect(blocks[0].contains(".package(path: \"../epf-importer\")"))

        // A folder as the README sets it up: the example beside a clone
        // named epf-importer (here a link to this package). It stays under
        // .build, built where later runs find it (a minute the first time).
        let files = FileManager.default
        let root = SampleFeeds.packageRoot.appendingPathComponent(".build/readme-example")
        let link = root.appendingPathComponent("epf-importer")
        let example = root.appendingPathComponent("epf-example")
        let sources = example.appendingPathComponent("Sources/epf-example")
        try files.createDirectory(at: sources, withIntermediateDirectories: true)
        if (try? files.destinationOfSymbolicLink(atPath: link.path)) != SampleFeeds.packageRoot.path {
            try? files.removeItem(at: link)
            try files.createSymbolicLink(at: link, withDestinationURL: SampleFeeds.packageRoot)
        }
        try blocks[0].write(to: example.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try blocks[1].write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let scratch = root.appendingPathComponent("scratch").path
        let folder = try TemporaryFolder.create("epf-library-example")
        defer { try? files.removeItem(at: folder) }
        let build = try runShell(
            "swift build --package-path '\(example.path)' --scratch-path '\(scratch)' 2>&1", withStandardError: true)
        try #require(build.status == 0, "\(String(decoding: build.output, as: UTF8.self))")

        let binary = "\(scratch)/debug/epf-example"
        let catalog = folder.appendingPathComponent("c.sqlite").path
        let id = "284882215"
        let first = try runShell("'\(binary)' '\(SampleFeeds.folder.path)' '\(catalog)' \(id) 2>'\(folder.path)/first.err'")
        let firstErrors = try String(contentsOfFile: "\(folder.path)/first.err", encoding: .utf8)
        #expect(first.status == 0, "\(firstErrors)")
        #expect(firstErrors.hasSuffix("file(s) applied, 0 failed\n") && !firstErrors.hasPrefix("0 "), "\(firstErrors)")
        let lookup = try JSONSerialization.jsonObject(with: Data(first.output)) as? [String: Any]
        #expect(lookup?["resultCount"] as? Int == 1)
        let result = (lookup?["results"] as? [[String: Any]])?.first
        #expect(result?["trackId"] as? Int == Int(id))
        #expect(result?["kind"] as? String == "software")

        let second = try runShell("'\(binary)' '\(SampleFeeds.folder.path)' '\(catalog)' \(id) 2>'\(folder.path)/second.err'")
        #expect(second.status == 0)
        #expect(try String(contentsOfFile: "\(folder.path)/second.err", encoding: .utf8) == "0 file(s) applied, 0 failed\n")
        #expect(second.output == first.output)
    }
}
