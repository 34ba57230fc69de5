import Foundation
import HTTPTypes
import Hummingbird

/// Behind a trusted reverse proxy (nginx, HAProxy), the client is the address the proxy appended to
/// `X-Forwarded-For`, not the proxy: per-address limits then count each client, not the proxy.
///
/// The header is read from its end, skipping trusted proxies, so a client cannot choose its address
/// by sending the header itself; from any other peer it is ignored.
package struct ForwardedForMiddleware: RouterMiddleware {
    package typealias Context = BFFRequestContext
    static let header = HTTPField.Name("X-Forwarded-For")!

    let trusted: TrustedProxies

    package init(trusted: TrustedProxies) {
        self.trusted = trusted
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if trusted.contains(context.clientAddress) {
            let hops = request.headers[values: Self.header]
                .flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if let client = hops.reversed().first(where: { !trusted.contains($0) && !$0.isEmpty }) {
                context.clientAddress = client
            }
        }
        return try await next(request, context)
    }
}
