"""Hooks for deploy/test-conformance: what a request must also satisfy beyond what OpenAPI 3.0
can say (rules between fields, each documented in the API's own text), and a fresh
Idempotency-Key per request, since a key reused on another request is 422 by design."""
import datetime
import uuid

import schemathesis


def _not_after(mapping, first, last):
    """The documented `first` not after `last`: dates or date-times, compared by their day (a
    date-time and a date of one day are made the same value)."""
    if mapping and isinstance(mapping.get(first), str) and isinstance(mapping.get(last), str):
        if mapping[first][:10] > mapping[last][:10]:
            mapping[first], mapping[last] = mapping[last], mapping[first]
        if mapping[first][:10] == mapping[last][:10]:
            mapping[last] = mapping[first]


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    if case.headers and "Idempotency-Key" in case.headers:
        case.headers["Idempotency-Key"] = "st-" + uuid.uuid4().hex
    path = case.operation.path
    # `from` is not after `to` (todo items, calendar events).
    _not_after(case.query, "from", "to")
    body = case.body if isinstance(case.body, dict) else None
    if path == "/api/registry/apps/{id}" and body and isinstance(body.get("manifest"), dict) and case.path_parameters:
        # The manifest's id is the path's, and the events it publishes start with it.
        manifest = body["manifest"]
        app = case.path_parameters.get("id", manifest.get("id"))
        manifest["id"] = app
        events = manifest.get("events")
        if isinstance(events, dict) and isinstance(events.get("publishes"), list):
            events["publishes"] = [f"{app}.{name.split('.', 1)[1]}" if isinstance(name, str) and "." in name else name
                                   for name in events["publishes"]]
    if path.startswith("/api/calendar/events") and body:
        # An event ends no earlier than it starts, and lasts at most 366 days: a valid one is
        # kept to the same day.
        start, end = body.get("start"), body.get("end")
        if isinstance(start, str) and isinstance(end, str) and len(start) >= 10 and len(end) >= 10:
            if start[:10] != end[:10] or start > end:
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
