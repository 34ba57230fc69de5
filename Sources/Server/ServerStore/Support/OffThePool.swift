import NIOPosix

/// Runs `work` on NIO's thread pool: what takes the CPU for long (a bcrypt hash, the instances of
/// a year of repeating events, a calendar's text read) would otherwise hold one of Swift's few
/// cooperative threads, and with it every other request and stream of the server.
package func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await NIOThreadPool.singleton.runIfActive(work)
}
