extension Duration {
    /// The duration in seconds, as a `Double` (what rates per second are counted in).
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Whole and fractional milliseconds, for logs and tables.
    public var fractionalMilliseconds: Double {
        inSeconds * 1_000
    }
}
