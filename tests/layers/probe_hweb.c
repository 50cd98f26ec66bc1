/* An adapter's file that reaches into another layer's inside: must not build. */
#include "hweb.h"
