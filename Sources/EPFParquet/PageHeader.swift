// The page header structs of parquet.thrift this writer writes before each page.

/// `PageHeader`: one per page, Thrift-encoded just before the page's bytes.
package struct PageHeader: ThriftStruct, Sendable {
    package var type: PageType
    package var uncompressedPageSize: Int32
    package var compressedPageSize: Int32
    package var dataPageHeader: DataPageHeader?
    package var dictionaryPageHeader: DictionaryPageHeader?

    package func write(to w: inout ThriftCompactWriter) {
        w.field(1, i32: type.rawValue)
        w.field(2, i32: uncompressedPageSize)
        w.field(3, i32: compressedPageSize)
        if let dataPageHeader { w.field(5, struct: dataPageHeader) }
        if let dictionaryPageHeader { w.field(7, struct: dictionaryPageHeader) }
    }
}

/// `DataPageHeader` (data page v1).
package struct DataPageHeader: ThriftStruct, Sendable {
    /// Values including nulls (rows, for a flat column).
    package var numValues: Int32
    package var encoding: Encoding
    package var definitionLevelEncoding: Encoding
    package var repetitionLevelEncoding: Encoding

    package func write(to w: inout ThriftCompactWriter) {
        w.field(1, i32: numValues)
        w.field(2, i32: encoding.rawValue)
        w.field(3, i32: definitionLevelEncoding.rawValue)
        w.field(4, i32: repetitionLevelEncoding.rawValue)
    }
}

/// `DictionaryPageHeader`.
package struct DictionaryPageHeader: ThriftStruct, Sendable {
    package var numValues: Int32
    package var encoding: Encoding

    package func write(to w: inout ThriftCompactWriter) {
        w.field(1, i32: numValues)
        w.field(2, i32: encoding.rawValue)
    }
}
