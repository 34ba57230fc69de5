"""Hooks for deploy/test-conformance: what a request must also satisfy beyond what OpenAPI 3.0
can say (rules between fields, each documented in the API's own text), and a fresh
Idempotency-Key per valid request, since a key reused on another request is 422 by design; an
invalid request keeps the key it was generated with, malformed or not."""
import base64
import datetime
import hashlib
import json
import uuid

import schemathesis
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from hypothesis import strategies as st

# A package's archive (`POST /api/registry/apps/{id}/versions`): bytes, which the server refuses
# (400 naming `archive`) unless they are a canonical tar of an app of that id.
schemathesis.openapi.media_type("application/x-tar", st.binary(max_size=4096))


def _not_after(mapping, first, last):
    """The documented `first` not after `last`: dates or date-times, compared by their day (a
    date-time and a date of one day are made the same value)."""
    if mapping and isinstance(mapping.get(first), str) and isinstance(mapping.get(last), str):
        if mapping[first][:10] > mapping[last][:10]:
            mapping[first], mapping[last] = mapping[last], mapping[first]
        if mapping[first][:10] == mapping[last][:10]:
            mapping[last] = mapping[first]


def _own_event(app, name):
    """`name` (`source.entity.action`) as one of app `app`'s own events, at most 96 characters."""
    if not isinstance(name, str) or name.count(".") < 2:
        return name
    own = ".".join([app] + name.split(".")[-2:])
    return own if len(own) <= 96 else f"{app}.event.done"


def _without_nul_keys(value):
    """`value` with NUL taken out of the keys of every `config` and `state` in it: a widget's
    settings and state refuse NUL in keys as in values, which OpenAPI 3.0 cannot say of keys."""
    if isinstance(value, list):
        return [_without_nul_keys(item) for item in value]
    if not isinstance(value, dict):
        return value
    return {key: ({name.replace("\x00", ""): item for name, item in member.items()}
                  if key in ("config", "state") and isinstance(member, dict) else _without_nul_keys(member))
            for key, member in value.items()}


def _package(app):
    """A package of app `app` in TermCanvas's canonical tar (PackageArchive): its app.yaml only,
    mode 0644, owners and times zero, two zero blocks at the end."""
    manifest = (f"id: {app}\nname: Schemathesis app\nversion: 1.0.0\nprotocol: \"1.0\"\n"
                "exec: [python3, main.py]\n").encode()
    header = bytearray(512)
    for offset, text in [(0, "app.yaml"), (100, "0000644"), (108, "0000000"), (116, "0000000"),
                         (124, f"{len(manifest):011o}"), (136, "00000000000"), (156, "0"), (257, "ustar"), (263, "00")]:
        header[offset:offset + len(text)] = text.encode()
    header[148:156] = b"        "
    header[148:156] = f"{sum(header):06o}".encode() + b"\0 "
    return bytes(header) + manifest + bytes((512 - len(manifest) % 512) % 512) + bytes(1024)


# The publisher's key the packages are signed with.
_PUBLISHER = Ed25519PrivateKey.generate()


def _signature(app, archive):
    """The `TermCanvas-Package-Signature` of `archive` as version 1.0.0 of `app`: the publisher's
    key's signature of the version's statement (PackageSignature in the API document)."""
    statement = f"termcanvas package v1\nid {app}\nversion 1.0.0\nsha256 {hashlib.sha256(archive).hexdigest()}\n".encode()
    key = _PUBLISHER.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return json.dumps({"key": base64.b64encode(key).decode(), "signature": base64.b64encode(_PUBLISHER.sign(statement)).decode(),
                       "endorsements": []})


# The coverage phase's scenarios whose values are valid (schemathesis's CoverageScenario).
_VALID_SCENARIOS = {
    "example_value", "default_value", "enum_value", "const_value", "valid_string", "valid_number", "valid_boolean",
    "valid_array", "valid_object", "minimum_length_string", "maximum_length_string", "near_boundary_length_string",
    "minimum_value", "maximum_value", "near_boundary_number", "maximum_items_array", "near_boundary_items_array",
    "enum_value_items_array", "object_only_required", "object_required_and_optional", "object_additional_property",
    "default_positive_test",
}


def _fresh_key():
    """A key no request used before, of any valid length and visible ASCII (`!`…`~`)."""
    unique = uuid.uuid4().hex
    padding = "".join(chr(0x21 + byte % 94) for byte in uuid.uuid4().bytes * 16)
    return (unique + padding)[: 32 + uuid.uuid4().int % 224]


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    # Only valid requests are made to obey the rules between fields: an invalid one stays as
    # generated, to be refused — its Idempotency-Key too (empty, too long, not visible ASCII).
    if case.meta is not None and case.meta.generation.mode != "positive":
        return
    if case.headers and "Idempotency-Key" in case.headers:
        case.headers["Idempotency-Key"] = _fresh_key()
    path = case.operation.path
    if path == "/api/registry/apps/{id}/versions" and case.path_parameters:
        # A valid archive is a canonical tar of an app of the path's id, which no schema can say;
        # not given to a coverage case that makes a part invalid on purpose: a `null` or a number
        # of the wrong type is sent as the text "null" or "12", which the server cannot tell from
        # an id.
        scenario = getattr(case.meta.phase.data, "scenario", None) if case.meta is not None else None
        if scenario is None or str(scenario) in _VALID_SCENARIOS:
            app = case.path_parameters.get("id", "st")
            case.body = _package(app)
            case.headers = dict(case.headers or {}, **{"TermCanvas-Package-Signature": _signature(app, case.body)})
        return
    # `from` is not after `to` (todo items, calendar events).
    _not_after(case.query, "from", "to")
    body = case.body if isinstance(case.body, dict) else None
    if path == "/api/registry/apps/{id}" and body and isinstance(body.get("manifest"), dict) and case.path_parameters:
        # The manifest's id is the path's, and the events it publishes start with it.
        manifest = body["manifest"]
        app = case.path_parameters.get("id", manifest.get("id"))
        manifest["id"] = app
        # The entry is an address this server calls: loopback only, as `serve` is run here.
        if isinstance(body.get("entry"), str):
            body["entry"] = "http://127.0.0.1:9/"
        events = manifest.get("events")
        if isinstance(events, dict) and isinstance(events.get("publishes"), list):
            events["publishes"] = [_own_event(app, name) for name in events["publishes"]]
    if path.startswith("/api/canvas") and body:
        case.body = body = _without_nul_keys(body)
    if path == "/api/canvas" and case.method.upper() == "POST" and body:
        # A shared layout keeps the arrangement rules (panes inside the grid, at least its minimum,
        # none overlapping: rules between fields), and a name is its owner's once.
        body["name"] = "st-" + uuid.uuid4().hex[:12]
        body["layout"] = {"name": "st", "grid": {"columns": 12, "rows": 12, "minimumPaneSize": {"width": 2, "height": 2}},
                          "panes": [{"id": 1, "app": "todo", "frame": {"origin": {"x": 0, "y": 0}, "size": {"width": 6, "height": 6}},
                                     "config": {}, "state": {}}]}
    if path == "/api/canvas/{id}" and case.method.upper() == "PATCH" and body:
        # A new name, as for a new canvas: no control characters, and one its owner has not used.
        body["name"] = "st-" + uuid.uuid4().hex[:12]
    if path.startswith("/api/calendar/events") and body:
        start, end = body.get("start"), body.get("end")
        if case.method.upper() == "PATCH" and (isinstance(start, str) or isinstance(end, str)):
            # A patch is checked with the event's other members: one that moves a bound says
            # both, and whether the event is all-day, so it cannot cross the bound it left out.
            if body.get("allDay") is None:
                body["allDay"] = False
            body["start"] = start = start if isinstance(start, str) else end
            body["end"] = end = end if isinstance(end, str) else start
        # An event ends no earlier than it starts (offsets make text order differ from time
        # order, so a different end becomes the start), and lasts at most 366 days.
        if isinstance(start, str) and isinstance(end, str) and start != end:
            body["end"] = end = start
        # An all-day event starts at a midnight UTC and ends at a later one.
        if body.get("allDay") is True and isinstance(body.get("start"), str) and len(body["start"]) >= 10:
            try:
                day = datetime.date.fromisoformat(body["start"][:10])
            except ValueError:
                return
            body["start"] = f"{day.isoformat()}T00:00:00Z"
            if day < datetime.date(9999, 12, 31):
                body["end"] = f"{(day + datetime.timedelta(days=1)).isoformat()}T00:00:00Z"
