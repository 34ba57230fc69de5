/* Declarations only: the functions are libdispatch's (see CMainQueue.h). */
#include "CMainQueue.h"
