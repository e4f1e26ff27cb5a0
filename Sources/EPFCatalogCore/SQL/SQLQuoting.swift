/// Quotes an identifier for SQL: `"name"`, with inner quotes doubled.
package func quoteIdentifier(_ name: String) -> String {
    quote(name, with: "\"")
}

/// Quotes a string literal for SQL: `'text'`, with inner quotes doubled.
package func quoteLiteral(_ text: String) -> String {
    quote(text, with: "'")
}

private func quote(_ text: String, with mark: Character) -> String {
    var quoted = String(mark)
    for character in text {
        if character == mark { quoted.append(mark) }
        quoted.append(character)
    }
    quoted.append(mark)
    return quoted
}

/// A comma-separated list of quoted names: `"a", "b"`.
package func quoteColumnList(_ names: [String]) -> String {
    names.map(quoteIdentifier).joined(separator: ", ")
}
