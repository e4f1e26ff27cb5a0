import Foundation

/// `SampleFeeds/` at the repository root: the small hand-made feeds the
/// tests import (`docs/development.md`, `SampleFeeds/README.md`).
public enum SampleFeeds {
    /// The package's root folder, found from this file's path
    /// (`Tests/EPFTestSupport/<file>` → `../..`).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `SampleFeeds/` itself.
    public static let folder = packageRoot.appendingPathComponent("SampleFeeds")

    /// The four feeds in the order they apply: the itunes FULL, pricing and
    /// popularity of 2026-11-01, then the itunes INCREMENTAL of 2026-11-02.
    public static let namesInOrder = ["itunes20261101", "pricing20261101", "popularity20261101", "itunes20261102"]

    /// `SampleFeeds/NAME`.
    public static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    /// `SampleFeeds/NAME`, as a path.
    public static func path(_ name: String) -> String { url(name).path }

    /// The paths of `namesInOrder`.
    public static var pathsInOrder: [String] { namesInOrder.map(path) }
}
