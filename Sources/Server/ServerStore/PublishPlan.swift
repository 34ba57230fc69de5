import ServerAPI

/// What a publish changes, decided from what the registry holds: the rules both engines follow.
///
/// - the first publish creates the app and makes its secrets;
/// - a newer version becomes the current one; after a withdrawal it brings the app back with new
///   secrets (the old ones may have leaked with the app's retirement);
/// - `rotateSecrets` makes new secrets for a live app, the old ones valid a while longer
///   (`AppSecrets.rotationOverlap`), with a newer version or the current one again;
/// - anything else older or equal is refused, as is a built-in app's id and an id another kind of
///   app has (a package cannot take a remote app's id, nor the other way round);
/// - a package has no secrets.
struct PublishPlan: Equatable {
    enum Outcome: Equatable {
        case refused(PublishOutcome)
        case create
        /// A newer version becomes the current one.
        case update
        /// Only the secrets change.
        case keepVersion
    }

    enum Secrets: Equatable {
        case keep
        /// New secrets; none of the old ones stay valid.
        case replace
        /// New secrets; the old ones stay valid for the overlap.
        case rotate
    }

    let outcome: Outcome
    package let secrets: Secrets

    /// Whether a row of the app's versions is added (and `registry.app.published` recorded).
    var addsVersion: Bool { outcome == .create || outcome == .update }

    /// `kind` and `withdrawn` of the app's row (nil kind: no row); `newest`, the newest version
    /// ever published.
    init(kind: String?, withdrawn: Bool, newest: SemanticVersion?, version: SemanticVersion, rotateSecrets: Bool,
         publishing: RegistryAppKind = .remote) {
        switch (kind, newest) {
        case (RegistryAppKind.builtin.rawValue?, _):
            (outcome, secrets) = (.refused(.builtIn), .keep)
        case (let kind?, _) where kind != publishing.rawValue:
            (outcome, secrets) = (.refused(.otherKind(RegistryAppKind(rawValue: kind) ?? .remote)), .keep)
        case (nil, _) where publishing == .package:
            (outcome, secrets) = (.create, .keep)
        case (nil, _):
            (outcome, secrets) = (.create, .replace)
        case (_, let newest?) where version <= newest:
            if rotateSecrets, !withdrawn, version == newest {
                (outcome, secrets) = (.keepVersion, .rotate)
            } else {
                (outcome, secrets) = (.refused(.notNewer(current: newest)), .keep)
            }
        case (_, let newest?) where !version.mayFollow(newest):
            (outcome, secrets) = (.refused(.tooFarAhead(newest: newest)), .keep)
        default:
            (outcome, secrets) = (.update, publishing == .package ? .keep : withdrawn ? .replace : rotateSecrets ? .rotate : .keep)
        }
    }
}
