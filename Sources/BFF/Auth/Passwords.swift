import HummingbirdBcrypt
import NIOPosix

/// bcrypt, off the server's event loops and Swift's cooperative threads: a hash at cost 12 takes
/// about a quarter of a second, so it runs on NIO's thread pool, whichever store calls it.
enum Passwords {
    static func hash(_ password: String, cost: UInt8) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    static func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }

    /// Spends the work of a real check on a name that has no password to check, so that timing
    /// does not tell which names exist.
    static func spendAsMuchAsACheck(_ password: String, cost: UInt8) async throws {
        _ = try await hash(password, cost: cost)
    }
}
