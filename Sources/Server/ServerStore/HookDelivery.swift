/// A webhook event waiting to be delivered.
package struct HookDelivery: Sendable, Equatable {
    package let id: Int64
    package let app: String
    package let event: String
    package let attempts: Int
}
