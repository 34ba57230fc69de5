import Foundation
@testable import ServerHTTP
@testable import ServerStore
import Testing
@testable import BFF

/// Verified tokens are remembered, but never past their expiry.
struct TokenIssuerTests {
    @Test func aRememberedTokenStillExpires() async throws {
        let issuer = await TokenIssuer(secret: BFFHarness.secret, lifetime: 60)
        let now = Date()
        let token = try await issuer.issue(for: BFFUser(id: 7, name: "ann"), session: "0123456789abcdef", now: now)
        #expect(await issuer.verify(token, now: now)?.userID == 7)
        #expect(await issuer.verify(token, now: now + 30)?.userID == 7)
        #expect(await issuer.verify(token, now: now + 61) == nil)
        // A forged token is never remembered as valid.
        #expect(await issuer.verify(token.dropLast(2) + "xx") == nil)
    }
}
