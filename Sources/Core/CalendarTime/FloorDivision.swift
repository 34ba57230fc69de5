extension BinaryInteger {
    /// Division rounding towards negative infinity: the quotient, and the remainder that is never
    /// negative for a positive divisor. For moments before 1970, and positions counted from an end.
    public func floorDivided(by divisor: Self) -> (Self, Self) {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder != 0 && (remainder < 0) != (divisor < 0) ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
