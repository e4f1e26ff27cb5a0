import EPFSQLite
import Testing

/// When a commit waits for the WAL's copy (`WALAllowance`, what
/// `WALCheckpointer` follows): loads wait past the bound, one large apply
/// goes on beside its copy, two never pile up.
@Suite("WAL allowance")
struct WALAllowanceTests {
    /// `committed(frames:)`, outside `#expect` (which cannot mutate).
    func commit(_ allowance: inout WALAllowance, _ frames: Int32) -> Bool { allowance.committed(frames: frames) }

    @Test func loadsWaitOnceTheBoundIsPassed() {
        var allowance = WALAllowance(maximumFrames: 100)
        let loads = [30, 60, 90].map { allowance.committed(frames: $0) }
        #expect(loads == [false, false, false])
        #expect(commit(&allowance, 120))
        allowance.caughtUp()
        // The next transaction started the WAL over.
        #expect(!commit(&allowance, 30))
    }

    @Test func oneLargeCommitGoesOnBesideItsCopyAndASecondWaits() {
        var allowance = WALAllowance(maximumFrames: 100)
        #expect(!commit(&allowance, 40))
        // An apply of 1,000 frames: no wait; loads after it until 100 more.
        #expect(!commit(&allowance, 1_040))
        #expect(allowance.largeCommitPending)
        let besideTheCopy = [1_070, 1_100, 1_130].map { allowance.committed(frames: $0) }
        #expect(besideTheCopy == [false, false, false])
        #expect(commit(&allowance, 1_160))
        allowance.caughtUp()
        #expect(!allowance.largeCommitPending)

        // Two applies in a row: the second waits for both copies.
        #expect(!commit(&allowance, 900))
        #expect(commit(&allowance, 1_900))
        // Never more than one large commit and the bound: the WAL held
        // 1,900 frames at most here, not one apply's more each day.
    }

    @Test func aWALThatStartedOverLiftsTheGrant() {
        var allowance = WALAllowance(maximumFrames: 100)
        #expect(!commit(&allowance, 1_000))
        // The copy caught up by itself and the WAL started over.
        #expect(!commit(&allowance, 20))
        #expect(!allowance.largeCommitPending)
        #expect(commit(&allowance, 115))
    }
}
