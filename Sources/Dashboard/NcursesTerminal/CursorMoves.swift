import CanvasCore

/// The cursor movements a terminal offers, its erasing of cells and its cursor's visibility, as
/// the bytes that make them; nil where it has none.
/// Rows and columns count from 0.
protocol CursorMoves {
    /// Row and column at once (`cup`): the one move every terminal the writer drives has.
    func address(_ point: Point) -> [UInt8]
    /// Column on the same row (`hpa`).
    func column(_ column: Int) -> [UInt8]?
    /// Row in the same column (`vpa`).
    func row(_ row: Int) -> [UInt8]?
    /// `count` columns to the right (`cuf`, or `cuf1` repeated).
    func right(_ count: Int) -> [UInt8]?
    func left(_ count: Int) -> [UInt8]?
    func up(_ count: Int) -> [UInt8]?
    func down(_ count: Int) -> [UInt8]?
    /// To column 0 of the same row (`cr`).
    var carriageReturn: [UInt8]? { get }
    /// Blanks `count` cells from the cursor on, leaving the cursor where it is (`ech`).
    func erase(_ count: Int) -> [UInt8]?
    /// Shows the cursor as the terminal normally does (`cnorm`).
    var showCursor: [UInt8]? { get }
    /// Hides the cursor (`civis`).
    var hideCursor: [UInt8]? { get }
}

extension CursorMoves {
    /// The fewest bytes that take the cursor from `from` (nil when not known) to `to`.
    ///
    /// Beside the address, a move on the same row may go by column, by steps, from the row's
    /// start, or by writing again the cells in between (`through`, when the caller has them, as
    /// the screen shows them with the pen in use); a move to another row combines the shortest
    /// vertical and horizontal parts.
    func shortest(from: Point?, to: Point, through: [UInt8]? = nil) -> [UInt8] {
        var best = address(to)
        guard let from else { return best }
        func consider(_ candidate: [UInt8]?) {
            if let candidate, candidate.count < best.count { best = candidate }
        }
        var vertical: [UInt8] = []
        if from.y != to.y {
            guard let part = shortestOf([row(to.y), to.y > from.y ? down(to.y - from.y) : up(from.y - to.y)]) else { return best }
            vertical = part
        } else {
            consider(through)
        }
        var horizontal: [[UInt8]?] = [column(to.x)]
        if to.x > from.x { horizontal.append(right(to.x - from.x)) }
        if to.x < from.x { horizontal.append(left(from.x - to.x)) }
        if let carriageReturn {
            horizontal.append(to.x == 0 ? carriageReturn : right(to.x).map { carriageReturn + $0 })
        }
        if to.x == from.x { horizontal.append([]) }
        if let part = shortestOf(horizontal) { consider(vertical + part) }
        return best
    }

    private func shortestOf(_ candidates: [[UInt8]?]) -> [UInt8]? {
        candidates.compactMap { $0 }.min { $0.count < $1.count }
    }
}
