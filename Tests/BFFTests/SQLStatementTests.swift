@testable import BFF
import CalendarTime
@testable import ServerStore
import Testing

/// The store core's statements and rows: values are bound in order, never pasted into the text;
/// a plan goes on with what each step made; a column read wrong throws. (Each engine's spelling
/// is tested by running the server's suite on it.)
struct SQLStatementTests {
    static func postgres(_ statement: SQLStatement) -> (text: String, values: [SQLValue]) {
        statement.rendered(placeholder: { "$\($0)" }, spell: { word in word == .forUpdate ? " FOR UPDATE" : "?word?" })
    }

    @Test func valuesAreBoundInOrderAcrossAppendedParts() {
        let columns: SQLStatement = "id, title"
        let hostile = "x'); DROP TABLE users; --"
        var statement: SQLStatement = "SELECT \(columns) FROM todo_items WHERE owner_id = \(Int64(7)) AND title = \(hostile)"
        statement += " AND due >= \(CalendarDate(year: 2026, month: 12, day: 1)) AND notes = \(nil as String?)\(.forUpdate)"
        let (text, values) = Self.postgres(statement)
        #expect(text == "SELECT id, title FROM todo_items WHERE owner_id = $1 AND title = $2 AND due >= $3 AND notes = $4 FOR UPDATE")
        #expect(values == [.integer(7), .text(hostile), .text("2026-12-01"), .null])
        #expect(statement.rendered(placeholder: { _ in "?" }, spell: { _ in "" }).text
            == "SELECT id, title FROM todo_items WHERE owner_id = ? AND title = ? AND due >= ? AND notes = ?")
    }

    @Test func aPlanGoesOnWithWhatEachStepMadeAndStopsAtAFailure() throws {
        struct Refused: Error {}
        let plan: Plan<Int> = Plan<Int>.run("SELECT 1") { rows in .done(rows.count) }.then { count in
            guard count == 0 else { throw Refused() }
            return .done(41)
        }.then { .done($0 + 1) }
        guard case .query(_, let next) = plan else { Issue.record("the plan starts with its query"); return }
        guard case .done(42) = try next(SQLRows()) else { Issue.record("no rows: 41 + 1"); return }
        var one = SQLRows()
        one.append(row: [SQLValue.integer(1)])
        guard case .failed(let error) = try next(one) else { Issue.record("a row: refused"); return }
        #expect(error is Refused)
    }

    @Test func aColumnOfTheWrongKindOrPastTheRowThrowsRatherThanTraps() {
        var rows = SQLRows()
        rows.append(row: [SQLValue.text("7"), .integer(2), .null])
        rows.append(row: [SQLValue.text("next"), .integer(1), .text("x")])
        #expect(throws: BFFStoreError.self) { try rows[0].integer(0) }
        #expect(throws: BFFStoreError.self) { try rows[0].bool(1) }
        #expect(throws: BFFStoreError.self) { try rows[0].text(3) }  // not the next row's first column
        #expect(throws: BFFStoreError.self) { try rows[1].optionalText(3) }
        #expect(throws: BFFStoreError.self) { try rows[1].text(-1) }
        #expect((try? rows[0].optionalText(2)) == .some(nil))
        #expect((try? rows[1].text(2)) == "x")
        #expect(rows.count == 2)
    }
}
