#ifndef CCURL_H
#define CCURL_H

/* The one C shim over libcurl; only the HTTPClient target imports this module.

   libcurl is loaded on first use (dlopen of libcurl.so.4), not linked: with it come some thirty
   libraries (two TLS stacks, Kerberos, LDAP, SSH, ...) whose loading and initialisers cost every
   start of the dashboard about 5 ms, and the dashboard needs HTTP only after its first frame.
   So every libcurl function the client uses is called through a wrapper here, `tc_curl_*`, valid
   once tc_curl_load() succeeded. Swift cannot call C variadic functions either, so each variadic
   call (curl_easy_setopt, curl_multi_setopt, curl_easy_getinfo) gets a wrapper with a typed
   argument. The header still comes from libcurl's -dev package, for the types and constants. */

#include <curl/curl.h>

/* Loads libcurl and resolves the functions below, once per process (thread-safe). Returns NULL
   when they are ready, else a description of what failed. */
const char *tc_curl_load(void);

CURLcode tc_curl_global_init(long flags);
CURL *tc_curl_easy_init(void);
void tc_curl_easy_cleanup(CURL *handle);
const char *tc_curl_easy_strerror(CURLcode code);
CURLM *tc_curl_multi_init(void);
CURLMcode tc_curl_multi_cleanup(CURLM *multi);
CURLMcode tc_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode tc_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode tc_curl_multi_perform(CURLM *multi, int *running);
CURLMcode tc_curl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout_ms, int *ready);
CURLMcode tc_curl_multi_wakeup(CURLM *multi);
CURLMsg *tc_curl_multi_info_read(CURLM *multi, int *left);
const char *tc_curl_multi_strerror(CURLMcode code);
struct curl_slist *tc_curl_slist_append(struct curl_slist *list, const char *line);
void tc_curl_slist_free_all(struct curl_slist *list);

/* curl_easy_setopt with a `long` argument (numbers and flags). */
CURLcode tc_curl_set_long(CURL *handle, CURLoption option, long value);

/* curl_easy_setopt with a `curl_off_t` argument (the *_LARGE options). */
CURLcode tc_curl_set_off_t(CURL *handle, CURLoption option, curl_off_t value);

/* curl_easy_setopt with a string argument; libcurl copies it (except CURLOPT_POSTFIELDS). */
CURLcode tc_curl_set_string(CURL *handle, CURLoption option, const char *value);

/* curl_easy_setopt with a data pointer (CURLOPT_WRITEDATA, CURLOPT_HEADERDATA,
   CURLOPT_ERRORBUFFER, CURLOPT_COPYPOSTFIELDS). */
CURLcode tc_curl_set_pointer(CURL *handle, CURLoption option, void *value);

/* curl_easy_setopt with a header list (CURLOPT_HTTPHEADER); the list must outlive the transfer. */
CURLcode tc_curl_set_slist(CURL *handle, CURLoption option, struct curl_slist *list);

/* curl_easy_setopt with a write-shaped callback (CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION). */
CURLcode tc_curl_set_write_callback(CURL *handle, CURLoption option, curl_write_callback callback);

/* curl_multi_setopt with a `long` argument. */
CURLMcode tc_curl_multi_set_long(CURLM *multi, CURLMoption option, long value);

/* curl_easy_getinfo for CURLINFO_LONG values. */
CURLcode tc_curl_get_long(CURL *handle, CURLINFO info, long *value);

#endif
