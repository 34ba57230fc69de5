/// Every error body the API sends: `{"error": message, "field": name-or-null}`.
public struct APIError: Codable, Sendable, Equatable, Error {
    public var error: String
    /// The request field at fault (a JSON key or query parameter), or nil when no one field is.
    public var field: String?

    public init(error: String, field: String? = nil) {
        self.error = error
        self.field = field
    }

    private enum CodingKeys: String, CodingKey { case error, field }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(error, forKey: .error)
        try container.encode(field, forKey: .field)
    }
}
