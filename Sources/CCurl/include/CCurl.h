#ifndef CCURL_H
#define CCURL_H

/* The one C shim over libcurl. Swift cannot call C variadic functions, so each variadic call
   the HTTP client needs (curl_easy_setopt, curl_multi_setopt, curl_easy_getinfo) gets one
   wrapper here with a typed argument. Nothing else lives in C: every other libcurl function
   (easy/multi handles, polling, slists, global init) is called from Swift directly, and only
   the HTTPClient target imports this module. */

#include <curl/curl.h>

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
