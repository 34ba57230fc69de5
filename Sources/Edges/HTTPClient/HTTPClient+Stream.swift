extension HTTPClient {
    /// Sends `request` once and hands over its response as it arrives (see `StreamPart`): for
    /// answers that come in pieces, such as a language model's streamed completion.
    ///
    /// No retries: whether a failed stream may be sent again, and after how long, is the caller's
    /// to decide (a `refused` part carries the server's `Retry-After`). The whole transfer is
    /// bounded by `configuration.totalTimeout`, and a silence longer than `idleTimeout` ends it
    /// with `.timeout`. Ending the consumption of the stream cancels the transfer.
    public func stream(_ request: Request, idleTimeout: Duration) -> AsyncStream<StreamPart> {
        let exchange: Exchange
        do throws(HTTPClientError) {
            exchange = try Exchange.build(
                request, endpoint: endpoint, token: token, connectTimeout: configuration.connectTimeout,
                totalTimeout: configuration.totalTimeout, idleTimeout: idleTimeout, maxResponseBytes: configuration.maxResponseBytes
            )
        } catch {
            return AsyncStream { $0.yield(.end(error)); $0.finish() }
        }
        guard let engine else { return AsyncStream { $0.yield(.end(unusable)); $0.finish() } }
        return engine.stream(exchange)
    }
}
