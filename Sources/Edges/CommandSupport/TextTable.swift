/// Rows a command prints as a table: each column as wide as its widest cell, two spaces apart,
/// no space at a line's end. The first row is the header.
public enum TextTable {
    public static func lines(_ rows: [[String]]) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            var line = zip(row, widths).map { cell, width in cell + String(repeating: " ", count: width - cell.count) }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
