import EPFCatalog
import Foundation
import Testing

@Suite("LoadCounts decoding")
struct LoadCountsDecodingTests {
    @Test("counters written before filteredRows existed decode, the missing one as 0")
    func olderCountersDecode() throws {
        let older = #"{"rowsRead":12,"duplicateKeys":2,"commentRows":1,"repairedRows":3,"rejoinedRows":3}"#
        let counts = try JSONDecoder().decode(LoadCounts.self, from: Data(older.utf8))
        #expect(counts.rowsRead == 12 && counts.duplicateKeys == 2 && counts.repairedRows == 3 && counts.rejoinedRows == 3)
        #expect(counts.filteredRows == 0)
        var filtered = counts
        filtered.filteredRows = 40
        let again = try JSONDecoder().decode(LoadCounts.self, from: try JSONEncoder().encode(filtered))
        #expect(again == filtered)
    }
}
