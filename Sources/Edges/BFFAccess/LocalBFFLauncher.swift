import FoundationEssentials
import PrivateFiles

/// How a dashboard reaches the local server: its socket and the local user's token.
public struct LocalBFFConnection: Sendable, Equatable {
    public let socketPath: String
    public let token: String
}

/// Finds this user's local BFF, or starts one (`termcanvas serve --local`) and waits until it
/// listens. Any number of dashboards may do this at once: the server's instance lock lets one
/// server win, the others exit at once, and every dashboard connects to the winner.
///
/// Call it off the main actor: it polls the socket every 20 ms while a server starts.
public struct LocalBFFLauncher: Sendable {
    public let directory: RuntimeDirectory
    /// The executable and arguments that start the server.
    public let command: [String]
    /// The server's log file, named in errors.
    public let logFile: String
    public let timeout: Duration

    public init(directory: RuntimeDirectory, command: [String], logFile: String, timeout: Duration = .seconds(10)) {
        self.directory = directory
        self.command = command
        self.logFile = logFile
        self.timeout = timeout
    }

    public func connect() async throws(BFFAccessError) -> LocalBFFConnection {
        try directory.prepare()
        if let connection = try running() { return connection }
        let server = try ServerProcess.spawn(command)
        defer { server.reapInBackground() }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if let connection = try running() { return connection }
            // Status 0 is a server that found another one holding the lock: wait for that one.
            if let status = server.exitStatus(), status != 0 { throw .serverExited(status: status, log: logFile) }
            do {
                try await Task.sleep(for: .milliseconds(20))
            } catch {
                throw .cancelled
            }
        }
        throw .notListening(seconds: Int(timeout.components.seconds), log: logFile)
    }

    /// The running server's connection, or nil when none listens (yet).
    public func running() throws(BFFAccessError) -> LocalBFFConnection? {
        let socket = directory.socket.path
        guard UnixSocket.isListening(at: socket) else { return nil }
        let token: String?
        do { token = try PrivateFile.read(directory.token) } catch { throw BFFAccessError(error) }
        guard let token else { return nil }
        return LocalBFFConnection(socketPath: socket, token: token)
    }
}
