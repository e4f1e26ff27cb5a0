import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// When a crash test kills `epf import`: at a test-only fault point
/// (`EPF_TEST_FAULT`, where the import kills itself with SIGKILL), or after
/// a share of an uninterrupted import's time.
public enum KillMoment: CustomStringConvertible, Sendable {
    /// At a fault point (`EPF_TEST_FAULT`).
    case at(String)
    /// After this share of an uninterrupted import's time.
    case after(Double)

    /// The moment as a trial names it: `at POINT`, `after N% of the import's time`.
    public var description: String {
        switch self {
        case .at(let point): "at \(point)"
        case .after(let share): "after \(Int(share * 100))% of the import's time"
        }
    }

    /// Runs `epf ARGUMENTS` in `folder` with `environment` (its output
    /// discarded) and kills it at this moment: the fault point set, or
    /// SIGKILL after this share of `uninterrupted`. Waits for it to end;
    /// true when SIGKILL ended it (not when it finished first).
    public func run(_ arguments: [String], in folder: URL, environment: [String: String], uninterrupted: Duration) throws -> Bool {
        var environment = environment
        var delay: Duration?
        switch self {
        case .at(let point): environment["EPF_TEST_FAULT"] = point
        case .after(let share): delay = uninterrupted * share
        }
        let process = try EPFRunner.process(arguments, in: folder, environment: environment)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let delay {
            Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }
}
