import CanvasCore
import Foundation
import ServerAPI

/// How a shared canvas is kept, so that an edit costs what it changes, not what the canvas holds:
///
/// - `canvases.layout`: the arrangement — grid and panes with their settings and state left
///   empty, a few kilobytes at most — rewritten only by edits that arrange;
/// - `canvas_pane_values`: each pane's settings and state as JSON with their sizes, one row a
///   pane, so a `setState` writes one row; their sum is held to `CanvasLimits.bytesMax`;
/// - `canvas_snapshots`: one row a canvas, the whole layout at the version before the oldest
///   change kept (its base), so every version whose changes are kept can be read again;
/// - `canvas_changes`: the changes after the base, at most `CanvasLimits.changesKept` and
///   `CanvasLimits.historyMaxBytes` of operations (`canvases.history_bytes`); past either, the
///   oldest are folded into the base, down to half the bytes or nine tenths of the count at once,
///   so folding (which rewrites the base) is paid for by the edits between two folds.
enum CanvasStorage {
    /// A pane's settings and state as stored.
    struct StoredValues {
        let config: String
        let state: String

        init(config: WidgetValues, state: WidgetValues) throws {
            self.config = try CanvasStorage.json(config)
            self.state = try CanvasStorage.json(state)
        }

        var bytes: Int { config.utf8.count + state.utf8.count }
    }

    /// `layout` with each pane's settings and state left out (they are rows of their own).
    static func arrangement(of layout: LayoutData) -> LayoutData {
        var arrangement = layout
        for index in arrangement.panes.indices {
            arrangement.panes[index].config = [:]
            arrangement.panes[index].state = [:]
        }
        return arrangement
    }

    /// Writes a new canvas's panes' settings and state and its base (version 0).
    /// - Throws: `CanvasTooLarge` past `CanvasLimits.bytesMax`.
    static func storeNewCanvas(_ id: Int64, layout: LayoutData) throws -> Plan<Void> {
        let values = try layout.panes.map { ($0.id, try StoredValues(config: $0.config, state: $0.state)) }
        let bytes = values.reduce(0) { $0 + $1.1.bytes }
        guard bytes <= CanvasLimits.bytesMax else { throw CanvasTooLarge(bytes: bytes) }
        let base = try json(layout)
        return values.reduce(Plan<Void>.run("INSERT INTO canvas_snapshots (canvas_id, version, layout) VALUES (\(id), 0, \(base))") { _ in .done(()) }) {
            plan, pane in plan.then { _ in insertValues(pane.1, of: pane.0, on: id) }
        }
    }

    /// The whole layout of canvas `id`: its arrangement with each pane's settings and state.
    static func wholeLayout(_ id: Int64, arrangement: LayoutData) -> Plan<LayoutData> {
        .run("SELECT pane_id, config, state FROM canvas_pane_values WHERE canvas_id = \(id)") { rows in
            let values = Dictionary(try rows.map { (try $0.integer(0), (config: try $0.text(1), state: try $0.text(2))) }) { first, _ in first }
            var layout = arrangement
            for index in layout.panes.indices {
                guard let stored = values[Int64(layout.panes[index].id.rawValue)] else { continue }
                layout.panes[index].config = try decode(WidgetValues.self, stored.config)
                layout.panes[index].state = try decode(WidgetValues.self, stored.state)
            }
            return .done(layout)
        }
    }

    /// `answer` as it stands once the canvas's size is counted: an ordered change that would take
    /// the panes' settings and state past `CanvasLimits.bytesMax` is refused instead.
    static func withinSize(_ answer: CanvasLog.Answer, on id: Int64) throws -> Plan<CanvasLog.Answer> {
        guard case .ordered(let change) = answer, let (pane, values) = try storedValues(after: change.operation) else { return .done(answer) }
        return .run("SELECT pane_id, config_bytes, state_bytes FROM canvas_pane_values WHERE canvas_id = \(id)") { rows in
            let kept = try rows.map { row in
                let (config, state) = (Int(try row.integer(1)), Int(try row.integer(2)))
                guard try row.integer(0) == Int64(pane.rawValue) else { return config + state }
                return values.config == nil ? config : state  // one of the two stays as it is
            }
            let bytes = kept.reduce(0, +) + (values.config?.utf8.count ?? 0) + (values.state?.utf8.count ?? 0)
            return .done(bytes <= CanvasLimits.bytesMax ? answer : .refused(change.origin, .canvasFull(bytes: CanvasLimits.bytesMax)))
        }
    }

    /// Writes what `change` does to canvas `id`, whose arrangement after it is `arrangement`, and
    /// keeps the change for members catching up.
    static func store(_ change: CanvasChange, on id: Int64, arrangement: LayoutData, nextPaneID: Int, now: Double) throws -> Plan<Void> {
        let operation = try json(change.operation)
        let arranges: Bool
        let values: Plan<Void>
        switch change.operation {
        case .add(let pane):
            arranges = true
            values = insertValues(try StoredValues(config: pane.config, state: pane.state), of: pane.id, on: id)
        case .remove(let pane, _):
            arranges = true
            values = .run("DELETE FROM canvas_pane_values WHERE canvas_id = \(id) AND pane_id = \(pane.rawValue)") { _ in .done(()) }
        case .configure(let pane, let config):
            arranges = false
            let text = try json(config)
            values = .run("""
                UPDATE canvas_pane_values SET config = \(text), config_bytes = \(text.utf8.count)
                WHERE canvas_id = \(id) AND pane_id = \(pane.rawValue)
                """) { _ in .done(()) }
        case .setState(let pane, let state):
            arranges = false
            let text = try json(state)
            values = .run("""
                UPDATE canvas_pane_values SET state = \(text), state_bytes = \(text.utf8.count)
                WHERE canvas_id = \(id) AND pane_id = \(pane.rawValue)
                """) { _ in .done(()) }
        case .move, .resize, .swap:
            arranges = true
            values = .done(())
        }
        let canvas: SQLStatement = arranges
            ? """
              UPDATE canvases SET layout = \(try json(arrangement)), version = \(change.version), next_pane_id = \(nextPaneID),
                  history_bytes = history_bytes + \(operation.utf8.count), updated_at = \(now) WHERE id = \(id) RETURNING history_bytes
              """
            : """
              UPDATE canvases SET version = \(change.version), history_bytes = history_bytes + \(operation.utf8.count), updated_at = \(now)
              WHERE id = \(id) RETURNING history_bytes
              """
        return values.then { _ in
            .run(canvas) { rows in
                let historyBytes = Int(try rows.first?.integer(0) ?? 0)
                return .run("""
                    INSERT INTO canvas_changes (canvas_id, version, author, session, sequence, operation, created_at)
                    VALUES (\(id), \(change.version), \(change.author), \(change.origin.session), \(change.origin.sequence), \(operation), \(now))
                    """) { _ in
                    .run("SELECT version FROM canvas_snapshots WHERE canvas_id = \(id)") { rows in
                        let base = Int(try rows.first?.integer(0) ?? 0)
                        guard change.version - base > CanvasLimits.changesKept || historyBytes > CanvasLimits.historyMaxBytes else { return .done(()) }
                        return foldOldestChanges(of: id, latest: change.version)
                    }
                }
            }
        }
    }

    /// Folds the oldest changes of canvas `id` into its base until at most nine tenths of
    /// `changesKept` and half of `historyMaxBytes` remain.
    private static func foldOldestChanges(of id: Int64, latest: Int) -> Plan<Void> {
        .run("SELECT version, layout FROM canvas_snapshots WHERE canvas_id = \(id)") { rows in
            guard let row = rows.first else { throw BFFStoreError.unreadableRow("canvas_snapshots of canvas \(id)") }
            let oldBase = try decode(LayoutData.self, try row.text(1))
            return .run("SELECT version, operation FROM canvas_changes WHERE canvas_id = \(id) AND version > \(try row.integer(0)) ORDER BY version") { rows in
                let changes = try rows.map { (version: Int(try $0.integer(0)), operation: try $0.text(1)) }
                var base = oldBase
                var remainingBytes = changes.reduce(0) { $0 + $1.operation.utf8.count }
                var remainingCount = changes.count
                var folded: Int?
                for change in changes where remainingCount > CanvasLimits.changesKept * 9 / 10 || remainingBytes > CanvasLimits.historyMaxBytes / 2 {
                    guard change.version < latest else { break }  // the newest change is always kept
                    base = try decode(CanvasOperation.self, change.operation).applied(to: base)
                    remainingBytes -= change.operation.utf8.count
                    remainingCount -= 1
                    folded = change.version
                }
                guard let folded else { return .done(()) }
                let (layout, bytes) = (try json(base), remainingBytes)
                return .run("UPDATE canvas_snapshots SET version = \(folded), layout = \(layout) WHERE canvas_id = \(id)") { _ in
                    .run("DELETE FROM canvas_changes WHERE canvas_id = \(id) AND version <= \(folded)") { _ in
                        .run("UPDATE canvases SET history_bytes = \(bytes) WHERE id = \(id)") { _ in .done(()) }
                    }
                }
            }
        }
    }

    private static func insertValues(_ values: StoredValues, of pane: PaneID, on id: Int64) -> Plan<Void> {
        .run("""
            INSERT INTO canvas_pane_values (canvas_id, pane_id, config, state, config_bytes, state_bytes)
            VALUES (\(id), \(pane.rawValue), \(values.config), \(values.state), \(values.config.utf8.count), \(values.state.utf8.count))
            """) { _ in .done(()) }
    }

    /// The pane whose stored values `operation` changes, and the new text of what it changes
    /// (nil: left as it is); nil for operations that change none.
    private static func storedValues(after operation: CanvasOperation) throws -> (PaneID, (config: String?, state: String?))? {
        switch operation {
        case .add(let pane):
            let values = try StoredValues(config: pane.config, state: pane.state)
            return (pane.id, (values.config, values.state))
        case .configure(let pane, let config): return (pane, (try json(config), nil))
        case .setState(let pane, let state): return (pane, (nil, try json(state)))
        case .remove, .move, .resize, .swap: return nil
        }
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}

/// A canvas's panes' settings and state past `CanvasLimits.bytesMax`.
package struct CanvasTooLarge: Error {
    package let bytes: Int
}
