/// The `data` of a `*.deleted` live event: the id of what is gone.
public struct DeletedEntity: Codable, Sendable, Equatable {
    public var id: Int64

    public init(id: Int64) {
        self.id = id
    }
}
