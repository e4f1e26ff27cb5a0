extension Duration {
    /// The duration in seconds, fractions included (what reports, journal
    /// times and `Thread.sleep(forTimeInterval:)` take).
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in whole milliseconds, the rest cut off (what SQLite's
    /// busy timeout takes).
    package var inMilliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}

extension Double {
    /// The value to three decimals (seconds to the millisecond), as the
    /// reports, logs and metrics write times.
    package var toThousandths: Double { (self * 1000).rounded() / 1000 }
}
