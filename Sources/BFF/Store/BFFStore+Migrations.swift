import GRDB

extension BFFStore {
    /// The schema, as numbered migrations: append new ones, never edit a shipped one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: users and todo items") { db in
            try db.create(table: "user") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
                t.column("passwordHash", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "todoItem") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("ownerId", .integer).notNull().references("user", onDelete: .cascade)
                t.column("title", .text).notNull()
                t.column("notes", .text).notNull()
                t.column("done", .boolean).notNull().defaults(to: false)
                t.column("due", .text)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .datetime).notNull()
            }
            try db.create(index: "todoItem_owner_id", on: "todoItem", columns: ["ownerId", "id"])
        }
        return migrator
    }
}
