#!/usr/bin/env python3
"""The other side of the CalDAV sync's tests: a calendar program using python `caldav`, the
field's client library, against the Radicale the test started.

usage: caldav_peer.py URL USER PASSWORD COMMAND ARGS...
  make-calendar ID NAME [events|tasks]   a calendar (or a task list) of the user's
  put CAL UID SUMMARY START END          an event (times as 20261124T100000Z)
  rename CAL UID SUMMARY                 the event's summary changed
  delete CAL UID                         the event deleted
  list CAL                               every event as JSON: [[uid, summary, dtstart], ...] by uid
  put-task CAL UID SUMMARY DUE           a task (due as 20261126)
  complete-task CAL UID                  the task marked done
  rename-task CAL UID SUMMARY            the task's summary changed
  delete-task CAL UID                    the task deleted
  list-tasks CAL                         every task as JSON: [[uid, summary, status], ...] by uid
"""
import json
import sys

import caldav


def main():
    url, user, password, command, *args = sys.argv[1:]
    client = caldav.DAVClient(url=url, username=user, password=password)
    principal = client.principal()
    if command == "make-calendar":
        components = ["VTODO"] if len(args) > 2 and args[2] == "tasks" else ["VEVENT"]
        principal.make_calendar(name=args[1], cal_id=args[0], supported_calendar_component_set=components)
        return
    calendar = principal.calendar(cal_id=args[0])
    if command == "put":
        uid, summary, start, end = args[1:5]
        calendar.save_event(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//caldav peer//EN\r\nBEGIN:VEVENT\r\n"
            f"UID:{uid}\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:{start}\r\nDTEND:{end}\r\nSUMMARY:{summary}\r\n"
            "END:VEVENT\r\nEND:VCALENDAR\r\n")
    elif command == "rename":
        event = calendar.event_by_uid(args[1])
        event.icalendar_component["summary"] = args[2]
        event.save()
    elif command == "delete":
        calendar.event_by_uid(args[1]).delete()
    elif command == "put-task":
        uid, summary, due = args[1:4]
        calendar.save_todo(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//caldav peer//EN\r\nBEGIN:VTODO\r\n"
            f"UID:{uid}\r\nDTSTAMP:20261101T000000Z\r\nDUE;VALUE=DATE:{due}\r\nSUMMARY:{summary}\r\nSTATUS:NEEDS-ACTION\r\n"
            "X-PEER-NOTE:kept as it came\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
    elif command == "complete-task":
        calendar.todo_by_uid(args[1]).complete()
    elif command == "rename-task":
        todo = calendar.todo_by_uid(args[1])
        todo.icalendar_component["summary"] = args[2]
        todo.save()
    elif command == "delete-task":
        calendar.todo_by_uid(args[1]).delete()
    elif command == "list-tasks":
        rows = []
        for todo in calendar.todos(include_completed=True):
            component = todo.icalendar_component
            rows.append([str(component.get("uid")), str(component.get("summary")), str(component.get("status", ""))])
        print(json.dumps(sorted(rows)))
    elif command == "list":
        rows = []
        for event in calendar.events():
            component = event.icalendar_component
            rows.append([str(component.get("uid")), str(component.get("summary")), component.get("dtstart").dt.strftime("%Y%m%dT%H%M%SZ")])
        print(json.dumps(sorted(rows)))
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
