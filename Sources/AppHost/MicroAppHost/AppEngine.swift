import AppModel
import MicroAppProtocol

/// What runs a micro-app once it may run: a process speaking the protocol, or a sampled command.
protocol AppEngine: AnyObject, Sendable {
    func start(_ parameters: InitializeParams, wake: @escaping @Sendable () -> Void)
    func send(_ message: HostToApp)
    func takeUpdates() -> AppUpdates
    func restart()
    func stop()
    /// Returns once every process it started is gone (after `stop`).
    func finished() async
}

/// Makes the calls an app asks for with `http`, with the user's token; the token stays here.
public protocol AppBackend: Sendable {
    func call(_ request: HTTPRequest) async -> Result<HTTPResult, RPCError>
}
