#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* libcurl's functions, resolved by tc_curl_load. */
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd[], unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    const char *(*multi_strerror)(CURLMcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_problem[512];

#define RESOLVE(field, name)                                                                     \
    do {                                                                                         \
        *(void **)(&curl.field) = dlsym(library, name);                                          \
        if (curl.field == NULL) {                                                                \
            snprintf(load_problem, sizeof load_problem, "libcurl.so.4 lacks %s", name);           \
            return;                                                                              \
        }                                                                                        \
    } while (0)

static void load(void) {
#ifdef __APPLE__
    void *library = dlopen("libcurl.4.dylib", RTLD_NOW | RTLD_LOCAL);
#else
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
#endif
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_problem, sizeof load_problem, "%s", reason ? reason : "libcurl.so.4 not found");
        return;
    }
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(multi_init, "curl_multi_init");
    RESOLVE(multi_cleanup, "curl_multi_cleanup");
    RESOLVE(multi_setopt, "curl_multi_setopt");
    RESOLVE(multi_add_handle, "curl_multi_add_handle");
    RESOLVE(multi_remove_handle, "curl_multi_remove_handle");
    RESOLVE(multi_perform, "curl_multi_perform");
    RESOLVE(multi_poll, "curl_multi_poll");
    RESOLVE(multi_wakeup, "curl_multi_wakeup");
    RESOLVE(multi_info_read, "curl_multi_info_read");
    RESOLVE(multi_strerror, "curl_multi_strerror");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
}

const char *tc_curl_load(void) {
    pthread_once(&load_once, load);
    return load_problem[0] ? load_problem : NULL;
}

CURLcode tc_curl_global_init(long flags) { return curl.global_init(flags); }
CURL *tc_curl_easy_init(void) { return curl.easy_init(); }
void tc_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
const char *tc_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }
CURLM *tc_curl_multi_init(void) { return curl.multi_init(); }
CURLMcode tc_curl_multi_cleanup(CURLM *multi) { return curl.multi_cleanup(multi); }
CURLMcode tc_curl_multi_add_handle(CURLM *multi, CURL *handle) { return curl.multi_add_handle(multi, handle); }
CURLMcode tc_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return curl.multi_remove_handle(multi, handle); }
CURLMcode tc_curl_multi_perform(CURLM *multi, int *running) { return curl.multi_perform(multi, running); }
CURLMcode tc_curl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout_ms, int *ready) {
    return curl.multi_poll(multi, extra, count, timeout_ms, ready);
}
CURLMcode tc_curl_multi_wakeup(CURLM *multi) { return curl.multi_wakeup(multi); }
CURLMsg *tc_curl_multi_info_read(CURLM *multi, int *left) { return curl.multi_info_read(multi, left); }
const char *tc_curl_multi_strerror(CURLMcode code) { return curl.multi_strerror(code); }
struct curl_slist *tc_curl_slist_append(struct curl_slist *list, const char *line) { return curl.slist_append(list, line); }
void tc_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLcode tc_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode tc_curl_set_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode tc_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode tc_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode tc_curl_set_slist(CURL *handle, CURLoption option, struct curl_slist *list) {
    return curl.easy_setopt(handle, option, list);
}

CURLcode tc_curl_set_write_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl.easy_setopt(handle, option, callback);
}

CURLMcode tc_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl.multi_setopt(multi, option, value);
}

CURLcode tc_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}
