from oauth2_provider.oauth2_validators import OAuth2Validator


class CompanyValidator(OAuth2Validator):
    """Claims as Keycloak or Okta give them (a name, an e-mail and the user's groups, each under its
    scope), and a disabled user loses their tokens at once, as those providers do: Django OAuth
    Toolkit alone keeps honouring an inactive user's access and refresh tokens."""

    oidc_claim_scope = dict(OAuth2Validator.oidc_claim_scope, groups="groups")

    def get_additional_claims(self, request):
        user = request.user
        return {
            "preferred_username": user.username,
            "email": user.email,
            "email_verified": bool(user.email),
            "groups": sorted(user.groups.values_list("name", flat=True)),
        }

    def validate_bearer_token(self, token, scopes, request):
        return super().validate_bearer_token(token, scopes, request) and request.user.is_active

    def validate_refresh_token(self, refresh_token, client, request, *args, **kwargs):
        return super().validate_refresh_token(refresh_token, client, request, *args, **kwargs) and request.user.is_active
