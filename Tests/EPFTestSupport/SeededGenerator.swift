@_spi(Benchmarks) import EPFSynthetic

/// A small deterministic generator for reproducible random input: the same
/// seed, the same numbers, so a failure can be replayed. EPFSynthetic's
/// `SplitMix64` (the generator of the synthetic feeds), as a
/// `RandomNumberGenerator`.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var splitMix: SplitMix64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { splitMix = SplitMix64(seed: seed) }

    /// The next number of the sequence.
    public mutating func next() -> UInt64 { splitMix.next() }
}
