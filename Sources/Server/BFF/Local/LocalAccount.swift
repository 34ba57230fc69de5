import Foundation
import ServerHTTP
import ServerStore

/// The account of the embedded local server: one user, created on first start, whose token the
/// server hands to the dashboards of the same OS user through a private file.
///
/// The user has no password: only the token file opens the account, and only the OS user can read
/// that file.
package struct LocalAccount: Sendable {
    package var userName: String
    /// Receives a fresh token before the server listens; writes it where clients look (mode 0600).
    package var publishToken: @Sendable (String) throws -> Void

    package init(userName: String, publishToken: @escaping @Sendable (String) throws -> Void) {
        self.userName = userName
        self.publishToken = publishToken
    }

    /// The OS login name when the BFF accepts it as a user name, so chat messages from this
    /// machine carry it; `local` otherwise.
    package static var defaultUserName: String {
        guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name.map({ String(cString: $0) }),
              BFFUser.isValidName(name)
        else { return "local" }
        return name
    }

    /// Makes sure the user exists, as the admin of their own server (they publish its micro-apps),
    /// and publishes a token for it.
    func prepare(store: BFFStore, issuer: TokenIssuer) async throws {
        var user = if let found = try await store.user(named: userName) { found } else {
            try await store.addUser(name: userName, password: nil, isAdmin: true)
        }
        if !user.isAdmin {
            try await store.setAdmin(name: userName, true)
            user.isAdmin = true
        }
        let now = issuer.now
        let session = try await store.startSession(for: user, method: .local, address: "this machine", client: nil,
                                                   expires: now.addingTimeInterval(issuer.lifetime), now: now)
        try publishToken(try await issuer.issue(for: user, session: session, now: now))
    }
}
