/// A webhook event waiting to be delivered.
public struct HookDelivery: Sendable, Equatable {
    package let id: Int64
    package let app: String
    package let event: String
    package let attempts: Int
}
