/// Why the BFF store could not do what was asked.
public enum BFFStoreError: Error, Equatable, CustomStringConvertible {
    case newerVersion
    case userExists(name: String)
    case invalidUserName(String)

    public var description: String {
        switch self {
        case .newerVersion: "the BFF database was written by a newer TermCanvas; update TermCanvas to use it"
        case .userExists(let name): "a user named '\(name)' already exists"
        case .invalidUserName(let reason): "invalid user name: \(reason)"
        }
    }
}
