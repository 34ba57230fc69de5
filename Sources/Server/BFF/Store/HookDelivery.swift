/// A webhook event waiting to be delivered.
public struct HookDelivery: Sendable, Equatable {
    let id: Int64
    let app: String
    let event: String
    let attempts: Int
}
