@testable import BFF
import ServerStore
import Testing

@Suite("Live event hub")
struct LiveEventHubTests {
    @Test("a subscription dropped without being read (its response never started) frees its place under the caps")
    func droppedSubscriptionFreesItsPlace() throws {
        let hub = LiveEventHub(limits: LiveEventHub.StreamLimits(perUser: 1, total: 10))
        // Held only inside this function, as a response handler that never ran holds it.
        func holdOne() throws {
            let held = try hub.subscribe(userID: 1)
            withExtendedLifetime(held) {
                #expect(hub.subscriberCount == 1)
                #expect(throws: LiveEventHub.TooManyStreams.self) { _ = try hub.subscribe(userID: 1) }
            }
        }
        try holdOne()
        #expect(hub.subscriberCount == 0)
        _ = try hub.subscribe(userID: 1)
    }
}
