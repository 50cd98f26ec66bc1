/* An adapter's file that reaches for the store: must not build (store.h is
   not on an adapter's include path; host.h and outq.h name the store
   opaque, and the adapter asks the host). */
#include "store.h"
