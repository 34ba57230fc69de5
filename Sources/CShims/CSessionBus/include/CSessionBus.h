#ifndef CSESSIONBUS_H
#define CSESSIONBUS_H

/* The one C shim over sd-bus (libsystemd), for a desktop notification on the session bus.

   libsystemd is loaded when the first notification is sent (dlopen of libsystemd.so.0), not
   linked: the dashboard sends none unless its user asks for them (--alert desktop), and should
   not pay for the library at every start. sd-bus is declared here rather than by its -dev
   package's header, for the few opaque types and calls used. */

#include <stddef.h>
#include <stdint.h>

enum {
    TC_NOTIFY_SENT = 0,
    /* libsystemd.so.0 cannot be loaded, or lacks a function. */
    TC_NOTIFY_NO_LIBRARY = 1,
    /* No session bus: no address, or nothing answers there. */
    TC_NOTIFY_NO_BUS = 2,
    /* The bus answered the call with an error; its name is in `problem`. */
    TC_NOTIFY_REFUSED = 3,
};

/* Calls org.freedesktop.Notifications.Notify on the session bus (at `address`, a D-Bus address;
   NULL: the user's, as DBUS_SESSION_BUS_ADDRESS or XDG_RUNTIME_DIR say), from `app`, with
   `summary` and `body`, shown for `timeout_ms` (-1: as the server likes). Waits for the answer
   at most 5 s. Returns one of the TC_NOTIFY_ codes; on TC_NOTIFY_REFUSED `problem` holds the
   D-Bus error's name (org.freedesktop.DBus.Error.ServiceUnknown, ...). Thread-safe. */
int tc_desktop_notify(const char *address, const char *app, const char *summary, const char *body, int32_t timeout_ms,
                      char *problem, size_t problem_size);

#endif
