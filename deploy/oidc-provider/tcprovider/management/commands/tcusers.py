"""The provider's people and clients, as an administrator of the company's identity provider sets
them: `tcusers setup NAME:PASSWORD[:GROUP,...]...`, `tcusers disable NAME`, `tcusers groups NAME
GROUP,...`; and `tcusers expire USER_CODE`, a device login's code run out (as its 30 minutes would)."""
from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand, CommandError
from oauth2_provider.models import Application, DeviceGrant

# The clients TermCanvas's tests log in through: the terminal's (public, device flow) and two web
# ones (authorization code with PKCE), whose ID tokens carry the same keys and claims; the second
# is another audience.
CLIENTS = [
    ("tc-device", Application.GRANT_DEVICE_CODE, ""),
    ("tc-web", Application.GRANT_AUTHORIZATION_CODE, "http://127.0.0.1/callback"),
    ("tc-other", Application.GRANT_AUTHORIZATION_CODE, "http://127.0.0.1/callback"),
]


def set_groups(user, names):
    user.groups.set([Group.objects.get_or_create(name=name)[0] for name in names if name])


class Command(BaseCommand):
    def add_arguments(self, parser):
        parser.add_argument("action", choices=["setup", "disable", "groups", "expire"])
        parser.add_argument("values", nargs="*")

    def handle(self, action, values, **options):
        if action == "setup":
            for client_id, grant, redirect in CLIENTS:
                Application.objects.update_or_create(client_id=client_id, defaults=dict(
                    name=client_id, client_type=Application.CLIENT_PUBLIC, authorization_grant_type=grant,
                    redirect_uris=redirect, skip_authorization=True, algorithm=Application.RS256_ALGORITHM))
            for spec in values:
                name, password, *groups = spec.split(":")
                user, _ = User.objects.get_or_create(username=name, defaults={"email": f"{name}@example.com"})
                user.set_password(password)
                user.is_active = True
                user.save()
                set_groups(user, groups[0].split(",") if groups else [])
        elif action == "disable":
            updated = User.objects.filter(username=values[0]).update(is_active=False)
            if not updated:
                raise CommandError(f"no user {values[0]}")
        elif action == "expire":
            if not DeviceGrant.objects.filter(user_code=values[0]).update(status=DeviceGrant.EXPIRED):
                raise CommandError(f"no device login with the code {values[0]}")
        elif action == "groups":
            set_groups(User.objects.get(username=values[0]), values[1].split(",") if len(values) > 1 else [])
