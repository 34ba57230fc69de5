#ifndef CMAINQUEUE_H
#define CMAINQUEUE_H

/* libdispatch's hooks for a run loop of the main thread's own (what CoreFoundation's run loop
   uses on Linux): the descriptor that becomes readable when the main queue has work, and the
   call that runs that work on the calling (main) thread. Exported by libdispatch, not declared in
   its public headers. */

/* An eventfd on Linux. */
int _dispatch_get_main_queue_handle_4CF(void);

/* Runs the main queue's pending work; the argument is unused on Linux. */
void _dispatch_main_queue_callback_4CF(void *message);

#endif
