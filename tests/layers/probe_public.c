/* The control: what an adapter may include builds. */
#include "host.h"
#include "outq.h"
#include "log.h"
#include "loop.h"
#include "text.h"
