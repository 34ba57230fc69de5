import CalendarTime
import Foundation
import GRDB
import MicroAppAPI

/// A row of `user`: a name and a bcrypt hash of the password, never the password.
struct UserRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "user"
    var id: Int64?
    var name: String
    var passwordHash: String
    var isAdmin: Bool
    var createdAt: Date

    enum Columns {
        static let name = Column(CodingKeys.name)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    func user(id: Int64) -> BFFUser { BFFUser(id: id, name: name, isAdmin: isAdmin) }
}
