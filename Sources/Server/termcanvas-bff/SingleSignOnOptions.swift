import ArgumentParser
import Foundation
import ServerSSO

/// `serve`'s single sign-on options: the OpenID Connect provider users sign in through.
struct SingleSignOnOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Sign users in through this OpenID Connect provider: its issuer exactly as its tokens name it (https, or http on loopback).",
        valueName: "URL"))
    var oidcIssuer: String?
    @Option(help: ArgumentHelp("The client registered for TermCanvas at the provider (public, with the device grant).", valueName: "ID"))
    var oidcClientID: String?
    @Option(help: ArgumentHelp("A file (mode 0600) holding the client's secret, for a provider that wants one with the device grant.",
                               valueName: "FILE"))
    var oidcClientSecretFile: String?
    @Option(help: ArgumentHelp("Members of this group at the provider are the server's admins, and only they.", valueName: "NAME"))
    var oidcAdminGroup: String?
    @Option(help: ArgumentHelp("Only members of this group at the provider may sign in.", valueName: "NAME"))
    var oidcUserGroup: String?
    @Option(help: ArgumentHelp("The claim that holds a user's groups.", valueName: "CLAIM"))
    var oidcGroupsClaim = "groups"
    @Option(help: ArgumentHelp("A scope to ask for at the device login (repeatable); default: openid profile email offline_access.",
                               valueName: "SCOPE"))
    var oidcScope: [String] = []
    @Option(help: ArgumentHelp("The provider's device authorization endpoint, when its discovery document does not name one.",
                               valueName: "URL"))
    var oidcDeviceEndpoint: String?
    @Option(help: ArgumentHelp(
        "Seconds a single sign-on's token lives before the provider is asked again (or less, when the provider's access token lives less): a user disabled at the provider loses the server within it.",
        valueName: "SECONDS"))
    var oidcSessionLifetime = 900
    @Flag(help: "Sign in through --oidc-issuer only: password logins (POST /api/auth/token) are refused.")
    var noPasswords = false

    func validate() throws {
        guard let issuer = oidcIssuer else {
            let stray = [("--oidc-client-id", oidcClientID != nil), ("--oidc-client-secret-file", oidcClientSecretFile != nil),
                         ("--oidc-admin-group", oidcAdminGroup != nil), ("--oidc-user-group", oidcUserGroup != nil),
                         ("--oidc-device-endpoint", oidcDeviceEndpoint != nil),
                         ("--no-passwords", noPasswords)].first { $0.1 }
            if let stray { throw ValidationError("\(stray.0) goes with --oidc-issuer URL") }
            return
        }
        guard oidcClientID.map({ !$0.isEmpty }) ?? false else { throw ValidationError("--oidc-issuer needs --oidc-client-id ID") }
        if let endpoint = oidcDeviceEndpoint, URL(string: endpoint)?.host == nil {
            throw ValidationError("--oidc-device-endpoint \(endpoint) is not a URL")
        }
        let addresses = SingleSignOnSettings(issuer: issuer, clientID: "", deviceAuthorizationEndpoint: oidcDeviceEndpoint.flatMap(URL.init(string:)))
        if let problem = IdentityProvider.problem(with: addresses) { throw ValidationError(problem) }
        guard (60...86_400).contains(oidcSessionLifetime) else {
            throw ValidationError("--oidc-session-lifetime must be 60 to 86400 seconds, got \(oidcSessionLifetime)")
        }
    }

    /// The settings, the client secret read from its file; nil without --oidc-issuer.
    func settings() throws -> SingleSignOnSettings? {
        guard let oidcIssuer, let oidcClientID else { return nil }
        return SingleSignOnSettings(
            issuer: oidcIssuer, clientID: oidcClientID,
            clientSecret: try oidcClientSecretFile.map { try PrivateSecret.read($0, option: "--oidc-client-secret-file", minimumLength: 1) },
            adminGroup: oidcAdminGroup, userGroup: oidcUserGroup, groupsClaim: oidcGroupsClaim,
            scopes: oidcScope.isEmpty ? SingleSignOnSettings.defaultScopes : oidcScope,
            deviceAuthorizationEndpoint: oidcDeviceEndpoint.flatMap(URL.init(string:)),
            sessionLifetime: TimeInterval(oidcSessionLifetime), passwords: !noPasswords
        )
    }
}

/// A secret the server reads from a file only its owner may read: every process given it can act
/// as the server.
enum PrivateSecret {
    static func read(_ path: String, option: String, minimumLength: Int) throws -> String {
        let secret: String
        do {
            secret = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw ValidationError("cannot read \(option) \(path): check that it exists and that this user may read it")
        }
        guard secret.count >= minimumLength else {
            throw ValidationError("\(option) \(path) must hold \(minimumLength == 1 ? "the secret" : "\(minimumLength) characters or more")")
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & 0o077 == 0 else {
            throw ValidationError("\(option) \(path) must be readable by its owner only (chmod 600)")
        }
        return secret
    }
}
