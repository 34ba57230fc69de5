/// The paths of the BFF's API, shared by server and clients so neither spells them twice.
public enum APIPath {
    public static let health = "/health"
    public static let authToken = "/api/auth/token"
    public static let todoItems = "/api/todo/items"

    /// The path of one todo item.
    public static func todoItem(_ id: Int64) -> String { "\(todoItems)/\(id)" }
}
