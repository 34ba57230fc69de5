"""The oracle for RecurrenceOracleTests: python-dateutil's rrule (pinned by the test) expands each
case of a JSON-lines file, `{"rule", "start", "from", "end", "limit"}` (ISO 8601 wall-clock
times), and writes one JSON line per case to the second file named: its instances from `start`
(the rule's) that are within `from` through `end`, at most `limit`; or
`"never"` for a rule with no instance found within 0.3 s (dateutil walks to the year 9999 for
one that has none at all: a few in the corpus can have none), or
`"invalid"` for one dateutil refuses."""
import json
import signal
import sys
from datetime import datetime

from dateutil.rrule import rrulestr


class Never(Exception):
    pass


def never(signum, frame):
    raise Never()


signal.signal(signal.SIGALRM, never)
answers = open(sys.argv[2], "w")
for line in open(sys.argv[1]):
    case = json.loads(line)
    start = datetime.fromisoformat(case["start"])
    first = datetime.fromisoformat(case["from"])
    end = datetime.fromisoformat(case["end"])
    found = []
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    try:
        for instance in rrulestr(case["rule"], dtstart=start):
            if instance > end or len(found) >= case["limit"]:
                break
            if instance >= first:
                found.append(instance.isoformat())
        answer = found
    except Never:
        answer = "never" if not found else found
    except ValueError:
        answer = "invalid"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    answers.write(json.dumps(answer) + "\n")
answers.close()
