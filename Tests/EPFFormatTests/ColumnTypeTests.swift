import EPFFormat
import Testing

@Suite("Column types")
struct ColumnTypeTests {
    /// Every type EPF-FORMAT.md lists as seen in `#dbTypes`.
    @Test(arguments: [
        ("BIGINT", ColumnType.Kind.integer), ("INTEGER", .integer), ("INT", .integer), ("TINYINT", .integer),
        ("BOOLEAN", .boolean),
        ("VARCHAR(10)", .text), ("VARCHAR(1000)", .text), ("VARCHAR(4000)", .text),
        ("LONGTEXT", .freeText), ("CLOB", .freeText),
        ("DATETIME", .date), ("DATE", .date), ("TIMESTAMP", .date),
        ("TIME", .text),
        ("DECIMAL(9,3)", .decimal),
    ])
    func declaredTypesMapToKinds(declared: String, kind: ColumnType.Kind) {
        let type = ColumnType(declared: declared)
        #expect(type.kind == kind)
        #expect(type.declared == declared)
    }

    @Test(arguments: [
        ("bigint", ColumnType.Kind.integer), ("Integer", .integer), ("int", .integer), ("tinyInt", .integer),
        ("boolean", .boolean), ("varchar(1000)", .text), ("VarChar(20)", .text), ("longtext", .freeText),
        ("LongText", .freeText), ("clob", .freeText), ("datetime", .date), ("date", .date), ("timestamp", .date),
        ("time", .text), ("decimal(9,3)", .decimal),
    ])
    func namesAreCaseInsensitive(declared: String, kind: ColumnType.Kind) {
        #expect(ColumnType(declared: declared).kind == kind)
    }

    @Test func widthsAreIgnored() {
        for declared in ["VARCHAR(1)", "VARCHAR(255)", "VARCHAR(100000)", "VARCHAR()", "VARCHAR (1000)", "VARCHAR(n)"] {
            #expect(ColumnType(declared: declared).kind == .text, "\(declared)")
        }
        for declared in ["DECIMAL(9,3)", "DECIMAL(20,3)", "DECIMAL(9)", "DECIMAL", "DECIMAL(9, 3)"] {
            #expect(ColumnType(declared: declared).kind == .decimal, "\(declared)")
        }
        #expect(ColumnType(declared: "INTEGER(11)").kind == .integer)
        #expect(ColumnType(declared: " BIGINT ").kind == .integer)
        // The declared text is kept exactly, width included.
        #expect(ColumnType(declared: "VARCHAR(1000)").declared == "VARCHAR(1000)")
        #expect(ColumnType(declared: "VARCHAR(1000)") != ColumnType(declared: "VARCHAR(20)"))
    }

    @Test(arguments: ["", "GEOMETRY", "BLOB", "VARCHAR2(10)", "BIG INT", "(10)", "INTEGERS", "JSON"])
    func unknownTypes(declared: String) {
        let type = ColumnType(declared: declared)
        #expect(type.kind == .unknown)
        #expect(type.declared == declared)
    }
}
