@testable import BFF
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerAPI
@testable import ServerHTTP
import Testing

@Suite("BFF rate limits")
struct RateLimitTests {
    @Test("a user over their rate gets 429 with Retry-After and the usual JSON error; others are unaffected")
    func perUser() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        // 1 per second, bursts of 2.
        let configuration = harness.configuration(rateLimits: RateLimits(perUserPerSecond: 1, tokenRequestsPerMinute: 100))
        try await harness.withServer(configuration: configuration) { client in
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            // Four at once: however slow the machine, 2 (the burst) and at most a refill get through.
            // (More would run into the per-address limit of 8, which Bob shares.)
            let responses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<4 { group.addTask { try await client.send(.get, APIPath.todoItems, token: ann) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(responses.filter { $0.status == .ok }.count >= 2)
            let limited = try #require(responses.first { $0.status == .tooManyRequests }, "\(responses.map(\.status))")
            #expect(responses.allSatisfy { $0.status == .ok || $0.status == .tooManyRequests })
            let retryAfter = try #require(limited.headers[.retryAfter].flatMap { Int($0) })
            #expect(retryAfter == 1)
            #expect(limited.apiError?.error.hasPrefix("too many requests") == true)
            #expect(try await client.send(.get, APIPath.todoItems, token: bob).status == .ok)
            try await Task.sleep(for: .seconds(retryAfter))
            #expect(try await client.send(.get, APIPath.todoItems, token: ann).status == .ok)
        }
    }

    @Test("one address is limited for all its users together, unauthenticated requests included")
    func perAddress() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        // Per address: 4 × 1 = 4 per second, bursts of 8.
        let configuration = harness.configuration(rateLimits: RateLimits(perUserPerSecond: 1, tokenRequestsPerMinute: 100))
        try await harness.withServer(configuration: configuration) { client in
            // Batches of 16 at once until the first 429: twice the burst, so a batch passes whole only
            // if sending it took the refill of 2 seconds. How many pass before it depends on how fast
            // this machine sends, so it is checked against the time taken (the burst, and 4 more
            // each second). One request at a time would never be limited on a machine busy enough
            // to take a quarter of a second a request.
            let started = ContinuousClock.now
            var passed = 0
            var limited = false
            while !limited, ContinuousClock.now - started < .seconds(10) {
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<16 { group.addTask { try await client.send(.get, APIPath.health).status.code } }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                for status in statuses {
                    switch status {
                    case 200: passed += 1
                    case 429: limited = true
                    case let other: Issue.record("status \(other)")
                    }
                }
            }
            let elapsed = Double((ContinuousClock.now - started).components.seconds) + 1
            #expect(limited)
            #expect(passed >= 8 && Double(passed) <= 8 + 4 * elapsed, "\(passed) passed in under \(elapsed) s")
        }
    }

    @Test("password guessing: token requests from one address are limited per minute")
    func tokenRoute() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        let configuration = harness.configuration(rateLimits: RateLimits(perUserPerSecond: 50, tokenRequestsPerMinute: 3))
        try await harness.withServer(configuration: configuration) { client in
            var statuses: [Int] = []
            let started = ContinuousClock.now
            for _ in 0..<4 {
                let response = try await client.send(.post, APIPath.authToken, json: TokenRequest(username: "ann", password: "wrong"))
                statuses.append(response.status.code)
            }
            #expect(statuses == [401, 401, 401, 429])
            let limited = try await client.send(.post, APIPath.authToken, json: TokenRequest(username: "ann", password: "pw-ann"))
            #expect(limited.status == .tooManyRequests)
            // A minute's three: the next in 20 s from the first, however long the hashes took.
            let elapsed = Int((ContinuousClock.now - started).components.seconds)
            let retryAfter = try #require(limited.headers[.retryAfter].flatMap { Int($0) })
            #expect(retryAfter + elapsed >= 19 && retryAfter <= 20, "Retry-After \(retryAfter) s, \(elapsed) s after the first")
        }
    }

    @Test("--rate-limit 0 turns limits off")
    func off() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer(configuration: harness.configuration(rateLimits: .off)) { client in
            let ann = try await client.token(for: "ann")
            for _ in 0..<300 {
                #expect(try await client.send(.get, APIPath.todoItems, token: ann).status == .ok)
            }
        }
    }

    @Test("with --instances N each instance enforces its share of a user's rate")
    func sharedByInstances() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        /// How many of four requests at once pass.
        func passing(_ limits: RateLimits) async throws -> Int {
            try await harness.withServer(configuration: harness.configuration(rateLimits: limits)) { client in
                let ann = try await client.token(for: "ann")
                return try await withThrowingTaskGroup(of: Bool.self) { group in
                    for _ in 0..<4 { group.addTask { try await client.send(.get, APIPath.todoItems, token: ann).status == .ok } }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
            }
        }
        // 2 per second: a burst of 4 alone; of 2 (and at most a refill) as one of two instances.
        #expect(try await passing(RateLimits(perUserPerSecond: 2, tokenRequestsPerMinute: 100)) == 4)
        #expect(try await passing(RateLimits(perUserPerSecond: 2, tokenRequestsPerMinute: 100, instances: 2)) <= 3)
    }

    @Test("behind a trusted proxy each forwarded client has its own per-address limit; from others the header is ignored")
    func forwardedFor() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        /// Whether a burst of 8 (the per-address burst) as `forwarded` is served in full right after
        /// 10.0.0.1 spent its own burst.
        func servedAfterABurst(_ forwarded: String, trusting proxies: [String]) async throws -> Bool {
            var configuration = harness.configuration(rateLimits: RateLimits(perUserPerSecond: 1, tokenRequestsPerMinute: 100))
            configuration.trustedProxies = try #require(TrustedProxies(proxies))
            return try await harness.withServer(configuration: configuration) { client in
                func burst(_ count: Int, as forwarded: String) async throws -> [HTTPResponse.Status] {
                    try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                        for _ in 0..<count {
                            group.addTask {
                                try await client.execute(uri: APIPath.health, method: .get, headers: [ForwardedForMiddleware.header: forwarded]).status
                            }
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                }
                #expect(try await burst(12, as: "10.0.0.1").contains(.tooManyRequests))
                return try await burst(8, as: forwarded).allSatisfy { $0 == .ok }
            }
        }
        #expect(try await servedAfterABurst("10.0.0.2", trusting: ["127.0.0.1"]))
        // The client's own header is kept in front; the proxy's last entry names it.
        #expect(try await !servedAfterABurst("10.0.0.2, 10.0.0.1", trusting: ["127.0.0.1"]))
        #expect(try await !servedAfterABurst("10.0.0.2", trusting: []))
        // A network of proxies (a container network's, whose addresses are not known ahead).
        #expect(try await servedAfterABurst("10.0.0.2", trusting: ["127.0.0.0/8"]))
        #expect(try await !servedAfterABurst("10.0.0.2", trusting: ["10.0.0.0/8"]))
    }
}
