import NIOCore
import Synchronization

/// How many connections the server holds at once: in all, and from one address. With the idle
/// timeout (which also closes a connection whose request head never completes), this is what keeps
/// slow or silent clients from taking every connection: past either cap a new connection is closed
/// at once, and the connections already open keep being served.
package struct ConnectionLimits: Sendable, Equatable {
    package var total: Int
    package var perAddress: Int

    package init(total: Int = 2048, perAddress: Int = 128) {
        self.total = total
        self.perAddress = perAddress
    }
}

/// Counts open connections, in all and per address (a unix socket's peers share one count).
package final class ConnectionLimiter: Sendable {
    private struct Counts {
        var total = 0
        var byAddress: [String: Int] = [:]
    }

    let limits: ConnectionLimits
    /// Reverse proxies carry many clients' requests: their connections count against the total only.
    let proxies: TrustedProxies
    private let counts = Mutex(Counts())

    package init(limits: ConnectionLimits, proxies: TrustedProxies = .none) {
        self.limits = limits
        self.proxies = proxies
    }

    /// Counts a new connection from `address`; false (and not counted) past a cap.
    func open(from address: String) -> Bool {
        counts.withLock { counts in
            guard counts.total < limits.total,
                  proxies.contains(address) || counts.byAddress[address, default: 0] < limits.perAddress else { return false }
            counts.total += 1
            counts.byAddress[address, default: 0] += 1
            return true
        }
    }

    func close(from address: String) {
        counts.withLock { counts in
            counts.total -= 1
            let left = counts.byAddress[address, default: 1] - 1
            counts.byAddress[address] = left > 0 ? left : nil
        }
    }

    /// The handler each new connection gets: it closes the connection past a cap.
    package func handler() -> ConnectionLimitHandler { ConnectionLimitHandler(limiter: self) }
}

/// Closes its connection at once when the limiter refuses it; releases the count when it closes.
package final class ConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = NIOAny
    private let limiter: ConnectionLimiter
    private var counted: String?

    init(limiter: ConnectionLimiter) {
        self.limiter = limiter
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        let address = context.channel.remoteAddress?.ipAddress ?? "local"
        if limiter.open(from: address) {
            counted = address
        } else {
            context.close(promise: nil)
        }
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        if let counted { limiter.close(from: counted) }
        counted = nil
    }
}
