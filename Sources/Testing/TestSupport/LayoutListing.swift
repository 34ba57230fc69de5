import Foundation

/// A line of `termcanvas layout list --bff` for a layout on the server: name, its pane count, when
/// it last changed (ISO 8601) and where it lives, tab-separated.
public enum LayoutListing {
    /// Whether `output` lists `name` with `panes` panes (any count when nil) at `place`.
    public static func lists(_ output: String, _ name: String, panes: Int? = nil, _ place: String) -> Bool {
        output.split(separator: "\n").contains { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, fields[0] == name, fields[3] == place, fields[1].hasSuffix(" panes"),
                  let count = Int(fields[1].dropLast(6)), panes.map({ $0 == count }) ?? true else { return false }
            return (try? Date(fields[2], strategy: .iso8601)) != nil
        }
    }
}
