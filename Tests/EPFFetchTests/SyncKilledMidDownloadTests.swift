import EPFTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `kill -9` of `epf sync` while a file is surely half downloaded: the
/// fault server sends the first bytes of the FULL day's `application.tbz`
/// and then holds the connection, so the kill lands when its `.part` is
/// on disk, non-empty and shorter than the file, every time.
@Suite("epf sync killed mid-download", .enabled(if: FaultServer.available, FaultServer.skipReason), .timeLimit(.minutes(2)))
struct SyncKilledMidDownloadTests {
    static let stalled = "/days/current/itunes20261201/application.tbz"
    static let sent = 1000

    @Test func theRunAfterTheKillContinuesThePartAndGivesTheUninterruptedCatalog() throws {
        let setup = try SyncDaysTests.FaultSetup(faults: [Self.stalled: ["stall:\(Self.sent)"]])
        defer { setup.cleanUp() }
        let (server, folder, tree, environment) = (setup.server, setup.folder, setup.tree, setup.environment)
        let size = try Data(contentsOf: tree.appendingPathComponent("itunes20261201/application.tbz")).count
        #expect(size > 2 * Self.sent)
        let sync = setup.sync

        let process = try EPFRunner.process(sync("killed"), in: folder, environment: environment)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let part = folder.appendingPathComponent("killed-dl/itunes20261201/application.tbz.part").path
        let deadline = Date().addingTimeInterval(60)
        var partSize = 0
        while process.isRunning, Date() < deadline {
            partSize = ((try? FileManager.default.attributesOfItem(atPath: part))?[.size] as? NSNumber)?.intValue ?? 0
            if partSize == Self.sent { break }
            usleep(10_000)
        }
        #expect(partSize == Self.sent, "the .part never held the bytes sent")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        #expect(((try? FileManager.default.attributesOfItem(atPath: part))?[.size] as? NSNumber)?.intValue == Self.sent)

        let again = try EPFRunner.run(sync("killed"), in: folder, environment: environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(
            again.stderr.contains("fetched: killed-dl/itunes20261201/application.tbz (\(size - Self.sent) bytes, resumed)"),
            "\(again.stderr)")
        // The second run asked for the rest only: no byte before the
        // `.part`'s end came twice.
        #expect(
            server.requests.filter { $0.hasPrefix("GET \(Self.stalled) ") } == [
                "GET \(Self.stalled) 200 range=[-] sent=\(Self.sent)",
                "GET \(Self.stalled) 206 range=[bytes=\(Self.sent)-] sent=\(size - Self.sent)",
            ])

        let whole = try EPFRunner.run(sync("whole"), in: folder, environment: environment)
        #expect(whole.status == 0, "\(whole.stderr)")
        let expected = try SyncDaysTests.rows("whole.sqlite", in: folder)
        #expect(expected["application"]?.isEmpty == false)
        #expect(try SyncDaysTests.rows("killed.sqlite", in: folder) == expected)
        let files = FileManager.default.enumerator(atPath: folder.appendingPathComponent("killed-dl").path)!.compactMap { $0 as? String }
        #expect(!files.contains { $0.hasSuffix(".part") || $0.hasSuffix(".tmp") }, "\(files)")
        #expect(files.filter { $0.hasSuffix(".tbz") }.count == 5)
        for file in files where file.hasSuffix(".tbz") {
            #expect(
                try Data(contentsOf: folder.appendingPathComponent("killed-dl/" + file))
                    == Data(contentsOf: tree.appendingPathComponent(file)),
                "\(file)")
        }
    }
}
