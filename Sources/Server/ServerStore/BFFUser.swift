import ServerAPI

/// A user as the store gives it out: no password hash.
package struct BFFUser: Sendable, Equatable {
    package let id: Int64
    package let name: String
    /// May publish and withdraw micro-apps in the registry.
    package var isAdmin = false

    package static let nameMaxLength = 64

    /// The rule for user names: 1 to 64 letters, digits, '.', '_' or '-' (and their bytes,
    /// `TextLength`: a letter may carry any number of combining marks).
    package static func isValidName(_ name: String) -> Bool {
        TextLength.admits(name, characters: 1...nameMaxLength) && name.allSatisfy { $0.isLetter || $0.isNumber || "._-".contains($0) }
    }
}
