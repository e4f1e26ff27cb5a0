/// What a test may change in a compaction; the default changes nothing.
/// The `epf` executable sets these from the environment, in one place.
package struct CompactionHooks: Sendable {
    /// Free bytes the catalog's disk is said to have.
    package var freeBytes: Int64?
    /// A pause after each step of the write back, so that a test's readers
    /// surely ask while the write is open.
    package var stepPause: Duration?

    package init(freeBytes: Int64? = nil, stepPause: Duration? = nil) {
        self.freeBytes = freeBytes
        self.stepPause = stepPause
    }
}
