import ServerAPI
import ServerHTTP
import ServerStore

extension PublishOutcome {
    /// Why a publish of app `id` as a `kind` app was refused, as the API says it; nil for one that
    /// was published. The remote and the package routes say it alike.
    func refusal(of id: String, as kind: RegistryAppKind) -> APIFailure? {
        switch self {
        case .published: nil
        case .notNewer(let current):
            APIFailure.conflict("must be newer than \(current), the newest version published", field: "manifest.version")
        case .tooFarAhead(let newest):
            APIFailure.conflict("may be at most \(SemanticVersion.largestMajorStep) major versions past \(newest), the newest published "
                                + "(so that no version can be the last)", field: "manifest.version")
        case .builtIn:
            APIFailure.conflict("'\(id)' is built into the server", field: "manifest.id")
        case .otherKind(let other):
            APIFailure.conflict("'\(id)' is a \(other.rawValue) app of this registry; a \(kind.rawValue) app needs an id of its own",
                                field: "manifest.id")
        case .notPublisher:
            APIFailure(status: .forbidden, body: APIError(error: kind == .package
                ? "only an admin or a publisher of \(id) may publish it: an admin runs termcanvas apps publishers \(id) --add NAME "
                    + "(the server's first admin is made where it runs: termcanvas user admin NAME)"
                : "only an admin may publish \(kind.rawValue) apps (the server's first admin is made where it runs: termcanvas user admin NAME)"))
        }
    }
}
