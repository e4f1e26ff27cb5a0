/// How many frames the WAL may hold before a commit waits for
/// `WALCheckpointer`'s copy to catch up, as a value the tests can drive.
///
/// `maximumFrames` normally. A commit that alone writes more (an
/// INCREMENTAL apply) is let through once: the WAL may then hold that
/// commit and `maximumFrames` more before a commit waits; a second such
/// commit while the first is granted waits at once. So the WAL never holds
/// two large commits at a time, and the loads after an apply run beside
/// its copy.
package struct WALAllowance: Sendable, Equatable {
    package let maximumFrames: Int32
    /// Frames in the WAL after the last commit.
    package private(set) var lastFrames: Int32 = 0
    /// Frames a commit may leave in the WAL without waiting.
    package private(set) var allowedFrames: Int32

    package init(maximumFrames: Int32) {
        self.maximumFrames = maximumFrames
        allowedFrames = maximumFrames
    }

    /// Whether a large commit was let through and its copy may still run.
    package var largeCommitPending: Bool { allowedFrames > maximumFrames }

    /// A commit left `frames` in the WAL: whether it waits for the copy.
    package mutating func committed(frames: Int32) -> Bool {
        // Fewer frames than after the last commit: the WAL started over
        // (every earlier frame was copied).
        if frames < lastFrames { allowedFrames = maximumFrames }
        let written = frames >= lastFrames ? frames - lastFrames : frames
        lastFrames = frames
        if written > maximumFrames && !largeCommitPending {
            allowedFrames = frames + maximumFrames
            return false
        }
        return frames > allowedFrames
    }

    /// The copy has caught up with every commit (after a wait): the next
    /// transaction starts the WAL over.
    package mutating func caughtUp() {
        allowedFrames = maximumFrames
    }
}
