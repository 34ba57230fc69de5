#if canImport(Glibc)
import Glibc
#endif
import CanvasCore

/// A run of cells on one row that changed between two frames.
public struct CellRun: Hashable, Sendable {
    public let origin: Point
    /// The new frame's cells themselves, not a copy.
    public let cells: ArraySlice<Cell>
}

extension Buffer {
    /// The cells that differ from `previous`, as runs per row in row-major order.
    ///
    /// A wide character whose right half changed is sent whole. When the sizes differ every
    /// cell is returned, as for a first frame.
    public func changes(since previous: Buffer?) -> [CellRun] {
        changes(since: previous, in: .all(size.height))
    }

    /// The changes within `rows` only: the caller knows the others are as they were (the host
    /// composes only what changed and says where). Rows outside the buffer are ignored.
    public func changes(since previous: Buffer?, in rows: DamagedRows) -> [CellRun] {
        let full = previous == nil || previous!.size != size
        var runs: [CellRun] = []
        for range in rows.ranges where range.lowerBound < size.height && range.upperBound > 0 {
            for y in max(0, range.lowerBound)..<min(size.height, range.upperBound) {
                let row = y * size.width
                if !full, rowIsBytewiseEqual(row, in: previous!) { continue }
                var x = 0
                while x < size.width {
                    guard full || cells[row + x] != previous!.cells[row + x] else {
                        x += 1
                        continue
                    }
                    var start = x
                    if cells[row + start].isContinuation, start > 0 { start -= 1 }
                    var end = x + 1
                    while end < size.width, full || cells[row + end] != previous!.cells[row + end] { end += 1 }
                    if end < size.width, cells[row + end].isContinuation { end += 1 }
                    if let last = runs.last, last.origin.y == y, last.origin.x + last.cells.count > start {
                        start = last.origin.x + last.cells.count
                    }
                    if start < end {
                        runs.append(CellRun(origin: Point(x: start, y: y), cells: cells[(row + start)..<(row + end)]))
                    }
                    x = end
                }
            }
        }
        return runs
    }

    /// Whether a row holds the same bytes in both buffers: then its cells are equal (most rows of
    /// a frame after a key). Unequal bytes (padding may differ) are compared cell by cell.
    private func rowIsBytewiseEqual(_ row: Int, in other: Buffer) -> Bool {
        cells.withUnsafeBytes { mine in
            other.cells.withUnsafeBytes { theirs in
                let stride = MemoryLayout<Cell>.stride
                let start = row * stride, length = size.width * stride
                guard length > 0, let mine = mine.baseAddress, let theirs = theirs.baseAddress else { return true }
                return memcmp(mine + start, theirs + start, length) == 0
            }
        }
    }
}
