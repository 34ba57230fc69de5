import os

from django.conf import settings


class RequestLog:
    """Appends each request's method and path to requests.log in the provider's folder, so a test
    can count what the server asked of the provider (its JWKS, its userinfo)."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.path = os.path.join(settings.STATE, "requests.log")

    def __call__(self, request):
        with open(self.path, "a") as log:
            log.write(f"{request.method} {request.path}\n")
        return self.get_response(request)
