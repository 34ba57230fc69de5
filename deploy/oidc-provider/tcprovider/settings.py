"""A real OpenID Connect provider for TermCanvas's tests: Django OAuth Toolkit, configured as a
company's identity provider would be (device flow, ID tokens signed RS256, a groups claim, users
who can be disabled). Everything it keeps is in TC_OIDC_DIR; its issuer is TC_OIDC_ISSUER."""
import os

STATE = os.environ["TC_OIDC_DIR"]
ISSUER = os.environ["TC_OIDC_ISSUER"]

SECRET_KEY = "tc-oidc-test-provider-not-a-secret"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "tcprovider.urls"
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
    "tcprovider",
]
MIDDLEWARE = [
    "tcprovider.requests.RequestLog",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": ["django.template.context_processors.request", "django.contrib.auth.context_processors.auth"]},
}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(STATE, "provider.sqlite3"),
                         "OPTIONS": {"timeout": 20}}}
LOGIN_URL = "/accounts/login/"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # test users only: fast logins
LOGGING = {"version": 1, "disable_existing_loggers": False}

with open(os.path.join(STATE, "key.pem")) as key:
    PRIVATE_KEY = key.read()

OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": PRIVATE_KEY,
    "OIDC_ISS_ENDPOINT": ISSUER,
    "OAUTH2_VALIDATOR_CLASS": "tcprovider.validator.CompanyValidator",
    "SCOPES": {"openid": "OpenID Connect", "profile": "Your name", "email": "Your e-mail address",
               "groups": "Your groups", "offline_access": "Stay signed in"},
    "DEFAULT_SCOPES": ["openid"],
    "OAUTH_DEVICE_VERIFICATION_URI": ISSUER + "/device/",
    # As Keycloak and Okta give it: the address with the code in it, for a phone's camera.
    "OAUTH_DEVICE_VERIFICATION_URI_COMPLETE": ISSUER + "/device/?user_code={user_code}",
    "DEVICE_FLOW_INTERVAL": int(os.environ.get("TC_OIDC_INTERVAL", "1")),
    "ACCESS_TOKEN_EXPIRE_SECONDS": int(os.environ.get("TC_OIDC_ACCESS_SECONDS", "300")),
    "ID_TOKEN_EXPIRE_SECONDS": int(os.environ.get("TC_OIDC_ID_SECONDS", "300")),
    "PKCE_REQUIRED": True,
}
