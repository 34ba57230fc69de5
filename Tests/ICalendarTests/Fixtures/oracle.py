"""The oracle for CalendarOccurrencesTests: python `icalendar` reads a calendar file and
python-dateutil's `rruleset` expands each event and task (start, RRULE, RDATE, less EXDATE, on
the event's own zone), instances changed on their own (RECURRENCE-ID) in place of the rule's.
Writes `[uid, start in UTC]` pairs for the instances starting in [FROM, TO), sorted.
usage: oracle.py FILE.ics HOME-ZONE FROM TO OUTPUT (FROM and TO in ISO 8601 with a zone)"""
import json
import sys
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from dateutil.rrule import rruleset, rrulestr
from icalendar import Calendar

path, home_name, first, last, output = sys.argv[1:6]
home = ZoneInfo(home_name)
first, last = datetime.fromisoformat(first), datetime.fromisoformat(last)


def aware(value):
    """A DATE-TIME, DATE or PERIOD's start as an aware datetime: floating and days on the home zone."""
    if isinstance(value, tuple):
        value = value[0]
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=home)
    return datetime(value.year, value.month, value.day, tzinfo=home)


def values(component, name):
    found = component.get(name)
    found = found if isinstance(found, list) else ([found] if found is not None else [])
    return [aware(item.dt) for entry in found for item in entry.dts]


calendar = Calendar.from_ical(open(path, "rb").read())
masters, changes = {}, {}
for component in calendar.walk():
    if component.name not in ("VEVENT", "VTODO") or "DTSTART" not in component:
        continue
    uid = str(component["UID"])
    start = aware(component.decoded("DTSTART"))
    if "RECURRENCE-ID" in component:
        changes.setdefault(uid, []).append((aware(component.decoded("RECURRENCE-ID")), start))
    else:
        masters[uid] = (component, start)

found = []
for uid, (component, start) in masters.items():
    replaced = {when.astimezone(timezone.utc) for when, _ in changes.get(uid, [])}
    if "RRULE" in component or "RDATE" in component:
        instances = rruleset()
        if "RRULE" in component:
            instances.rrule(rrulestr(component["RRULE"].to_ical().decode(), dtstart=start))
        instances.rdate(start)
        for when in values(component, "RDATE"):
            instances.rdate(when)
        for when in values(component, "EXDATE"):
            instances.exdate(when)
        for instance in instances.between(first - timedelta(days=2), last + timedelta(days=2), inc=True):
            if instance.astimezone(timezone.utc) not in replaced and first <= instance < last:
                found.append((uid, instance))
    elif first <= start < last:
        found.append((uid, start))
    for _, moved in changes.get(uid, []):
        if first <= moved < last:
            found.append((uid, moved))

pairs = sorted((instance.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), uid) for uid, instance in found)
json.dump([[uid, when] for when, uid in pairs], open(output, "w"))
