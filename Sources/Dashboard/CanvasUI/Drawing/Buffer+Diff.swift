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
        let previous = previous?.size == size ? previous : nil
        var runs: [CellRun] = []
        for y in rows.within(height: size.height) where previous.map({ !rowIsBytewiseEqual(y * size.width, in: $0) }) ?? true {
            appendRuns(ofRow: y, since: previous, to: &runs)
        }
        return runs
    }

    /// Brings this buffer, the screen's copy, up to `frame` in `rows`, and returns the runs that
    /// changed there, as `frame.changes(since: self, in: rows)` does. A row whose bytes differ
    /// is copied whole: cells equal in value can differ in their padding, and a row left so
    /// would be compared cell by cell at every frame.
    public mutating func catchUp(to frame: Buffer, in rows: DamagedRows) -> [CellRun] {
        guard frame.size == size else {
            self = frame
            return frame.changes(since: nil)
        }
        var runs: [CellRun] = []
        for y in rows.within(height: size.height) where !frame.rowIsBytewiseEqual(y * size.width, in: self) {
            frame.appendRuns(ofRow: y, since: self, to: &runs)
            copyRow(y, from: frame)
        }
        return runs
    }

    /// Adds the runs of row `y` that differ from `previous` (every cell without one). A wide
    /// character whose right half changed is sent whole.
    private func appendRuns(ofRow y: Int, since previous: Buffer?, to runs: inout [CellRun]) {
        let row = y * size.width
        let full = previous == nil
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
