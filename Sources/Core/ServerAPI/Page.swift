/// One page of a list: `{"items": [...], "next": cursor-or-null}`; pass `next` as `cursor` to get the following page.
public struct Page<Item: Codable & Sendable>: Codable, Sendable {
    public var items: [Item]
    public var next: String?

    public init(items: [Item], next: String? = nil) {
        self.items = items
        self.next = next
    }

    private enum CodingKeys: String, CodingKey { case items, next }

    /// Writes `next` as `null` on the last page rather than leaving it out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(next, forKey: .next)
    }
}

extension Page: Equatable where Item: Equatable {}
