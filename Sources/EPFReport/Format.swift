import Foundation

/// Counts, bytes and durations for people: `1,234,567`, `45.6 MB`, `2m5s`.
package enum Format {
    /// `1234567` as `1,234,567`.
    package static func count(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return out
    }

    /// Bytes in decimal units: `512 B`, `45.6 MB`.
    package static func bytes(_ value: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var amount = Double(value)
        var unit = 0
        while amount >= 1000 && unit < units.count - 1 {
            amount /= 1000
            unit += 1
        }
        return unit == 0 ? "\(value) B" : String(format: "%.1f %@", amount, units[unit])
    }

    /// `515.8 of 607.6 MB`; `900.0 KB of 1.2 MB` when the units differ.
    package static func bytes(_ value: Int64, of total: Int64) -> String {
        let (part, whole) = (bytes(value), bytes(total))
        let unit = whole.split(separator: " ").last
        guard value > 0, part.split(separator: " ").last == unit, let unit, unit != "B" else { return "\(part) of \(whole)" }
        return "\(part.dropLast(unit.count + 1)) of \(whole)"
    }

    /// `42s`, `2m5s`, `1h3m`.
    package static func duration(_ seconds: Double) -> String {
        if seconds < 60 { return String(format: "%.0fs", seconds) }
        let minutes = Int(seconds) / 60
        if minutes < 60 { return "\(minutes)m\(Int(seconds) % 60)s" }
        return "\(minutes / 60)h\(minutes % 60)m"
    }
}
