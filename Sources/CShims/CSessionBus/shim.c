#include "CSessionBus.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef struct sd_bus sd_bus;
typedef struct sd_bus_message sd_bus_message;
typedef struct {
    const char *name;
    const char *message;
    int _need_free;
} sd_bus_error;

/* sd-bus's functions, resolved once. */
static struct {
    int (*open_user)(sd_bus **);
    int (*new_bus)(sd_bus **);
    int (*set_address)(sd_bus *, const char *);
    int (*set_bus_client)(sd_bus *, int);
    int (*start)(sd_bus *);
    int (*set_method_call_timeout)(sd_bus *, uint64_t);
    int (*call_method)(sd_bus *, const char *, const char *, const char *, const char *, sd_bus_error *, sd_bus_message **,
                       const char *, ...);
    sd_bus *(*flush_close_unref)(sd_bus *);
    sd_bus_message *(*message_unref)(sd_bus_message *);
    void (*error_free)(sd_bus_error *);
    int ready;
} bus;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    *(void **)(&bus.open_user) = dlsym(library, "sd_bus_open_user");
    *(void **)(&bus.new_bus) = dlsym(library, "sd_bus_new");
    *(void **)(&bus.set_address) = dlsym(library, "sd_bus_set_address");
    *(void **)(&bus.set_bus_client) = dlsym(library, "sd_bus_set_bus_client");
    *(void **)(&bus.start) = dlsym(library, "sd_bus_start");
    /* Since systemd 240; without it, sd-bus's own default (25 s). */
    *(void **)(&bus.set_method_call_timeout) = dlsym(library, "sd_bus_set_method_call_timeout");
    *(void **)(&bus.call_method) = dlsym(library, "sd_bus_call_method");
    *(void **)(&bus.flush_close_unref) = dlsym(library, "sd_bus_flush_close_unref");
    *(void **)(&bus.message_unref) = dlsym(library, "sd_bus_message_unref");
    *(void **)(&bus.error_free) = dlsym(library, "sd_bus_error_free");
    bus.ready = bus.open_user && bus.new_bus && bus.set_address && bus.set_bus_client && bus.start && bus.call_method &&
                bus.flush_close_unref && bus.message_unref && bus.error_free;
}

static sd_bus *connect(const char *address) {
    sd_bus *connection = NULL;
    if (address == NULL) return bus.open_user(&connection) < 0 ? NULL : connection;
    if (bus.new_bus(&connection) < 0) return NULL;
    if (bus.set_address(connection, address) < 0 || bus.set_bus_client(connection, 1) < 0 || bus.start(connection) < 0) {
        bus.flush_close_unref(connection);
        return NULL;
    }
    return connection;
}

int tc_desktop_notify(const char *address, const char *app, const char *summary, const char *body, int32_t timeout_ms,
                      char *problem, size_t problem_size) {
    pthread_once(&load_once, load);
    if (!bus.ready) return TC_NOTIFY_NO_LIBRARY;
    sd_bus *connection = connect(address);
    if (connection == NULL) return TC_NOTIFY_NO_BUS;
    if (bus.set_method_call_timeout) bus.set_method_call_timeout(connection, 5000000);
    sd_bus_error error = {NULL, NULL, 0};
    sd_bus_message *reply = NULL;
    /* Notify(app_name s, replaces_id u, app_icon s, summary s, body s, actions as, hints a{sv},
       expire_timeout i): no actions and no hints, each an array of 0 elements. */
    int result = bus.call_method(connection, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                 "org.freedesktop.Notifications", "Notify", &error, &reply, "susssasa{sv}i", app, (uint32_t)0, "",
                                 summary, body, 0, 0, timeout_ms);
    int code = TC_NOTIFY_SENT;
    if (result < 0) {
        code = TC_NOTIFY_REFUSED;
        snprintf(problem, problem_size, "%s", error.name ? error.name : "org.freedesktop.DBus.Error.Failed");
    }
    bus.error_free(&error);
    if (reply) bus.message_unref(reply);
    bus.flush_close_unref(connection);
    return code;
}
