/// A user as the store gives it out: no password hash.
public struct BFFUser: Sendable, Equatable {
    public let id: Int64
    public let name: String
    /// May publish and withdraw micro-apps in the registry.
    public var isAdmin = false

    /// The rule for user names: 1 to 64 letters, digits, '.', '_' or '-'.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name.allSatisfy { $0.isLetter || $0.isNumber || "._-".contains($0) }
    }
}
