import EPFCatalog
import EPFFormat
import EPFTestSupport
import Foundation
import Testing

@testable import EPFPostgres

/// The COPY streams of one load (`CopyLanes`) against a real server: every
/// row arrives once, whichever lane carried it, and a line the server
/// refuses is named by the row the loader sent, not by the lane's line.
@Suite("COPY over several connections", .enabled(if: TestServer.available, TestServer.skipReason))
struct CopyLanesTests {
    /// Three lanes, each in a transaction with a COPY into `lanes_test`.
    static func openLanes(_ database: TestDatabase) throws -> CopyLanes {
        let setup = try database.connect()
        try setup.execute("CREATE TABLE lanes_test (id BIGINT NOT NULL, lane_row BIGINT NOT NULL)")
        let connections = try (0..<3).map { _ in try database.connect() }
        for connection in connections {
            try connection.execute("BEGIN")
            try connection.beginCopy("COPY lanes_test (id, lane_row) FROM STDIN")
        }
        // Small buffers: a piece of ten rows fits, the pool cycles often.
        return CopyLanes(connections: connections, bufferCapacity: 512)
    }

    /// Ships `pieces` pieces of ten rows (`id` = row number), the row
    /// `bad` (if any) written so that BIGINT refuses it.
    static func ship(_ lanes: CopyLanes, pieces: Int, bad: Int? = nil) throws {
        for piece in 0..<pieces {
            var text = ""
            for row in piece * 10 + 1...piece * 10 + 10 {
                text += row == bad ? "not-a-number\t\(row)\n" : "\(row)\t\(row)\n"
            }
            let bytes = Array(text.utf8)
            let target = lanes.current.pointer
            _ = target.initialize(from: bytes)
            try lanes.ship(bytes.count, piece: CopyLanes.Piece(firstRow: piece * 10 + 1, rows: 10))
        }
    }

    @Test("Pieces over three lanes: every row stored once, whichever lane took it")
    func everyRowOnce() throws {
        let database = try TestDatabase()
        let lanes = try Self.openLanes(database)
        try Self.ship(lanes, pieces: 40)
        try lanes.endCopies()
        for connection in lanes.connections { try connection.execute("COMMIT") }
        let check = try database.connect()
        #expect(try check.scalar("SELECT count(*) FROM lanes_test") == "400")
        #expect(try check.scalar("SELECT count(DISTINCT id) FROM lanes_test WHERE id BETWEEN 1 AND 400") == "400")
        // More than one lane carried rows (the pool holds two pieces a lane).
        #expect(try check.scalar("SELECT count(DISTINCT xmin::text) FROM lanes_test").flatMap(Int.init) ?? 0 > 1)
    }

    @Test(
        "Files loading at once share --jobs less one extra COPY connections: the first takes them, the next gets them back when it is done")
    func extraConnectionsAreShared() throws {
        let database = try TestDatabase()
        let store = try PostgresCatalogStore(
            target: database.target, options: PostgresStoreOptions(copyStreams: 3, parallelCopyBytes: 0))
        let bytes = tableFileBytes(
            columns: ["id", "name"], types: ["BIGINT", "VARCHAR(20)"], key: ["id"], mode: "FULL", rows: [["1", "a"]])
        let header = try bytes.withUnsafeBytes { buffer throws -> EPFHeader in
            guard case .header(let header) = try HeaderParser.parse(buffer, isComplete: true) else { throw CancellationError() }
            return header
        }
        func loader(_ table: String) throws -> PostgresTableLoader {
            try #require(
                try store.makeLoader(for: StagingTarget(table: table, header: header, sourceName: table), strict: false)
                    as? PostgresTableLoader)
        }
        let first = try loader("first")
        let second = try loader("second")
        #expect(first.lanes.count == 3)
        #expect(second.lanes.count == 1)
        first.suspend()
        let third = try loader("third")
        #expect(third.lanes.count == 3)
        second.suspend()
        third.suspend()
    }

    @Test("A row the server refuses is named by its row number, whichever lane and line it was", arguments: [1, 57, 230, 400])
    func refusedRowNamed(bad: Int) throws {
        let database = try TestDatabase()
        let lanes = try Self.openLanes(database)
        try Self.ship(lanes, pieces: 40, bad: bad)
        // Every lane carried pieces: a lane's line number is not the row's.
        #expect(lanes.pieces.allSatisfy { !$0.isEmpty }, "\(lanes.pieces.map(\.count))")
        do {
            try lanes.endCopies()
            Issue.record("the server took a row it should refuse")
        } catch {
            #expect(error.row == bad)
            #expect(error.error.message.contains("not-a-number"), "\(error.error.message)")
        }
        for connection in lanes.connections { connection.rollback() }
        #expect(try database.connect().scalar("SELECT count(*) FROM lanes_test") == "0")
    }
}
